/**
 * Local emulator of the Solution Installation Service (see README.md).
 *
 *   const emu = await startEmulator();            // free port on 127.0.0.1
 *   await axios.get(`${emu.baseUrl}/solution/apps`, { headers: { Authorization: `Bearer ${emu.token()}` } });
 *   await emu.close();
 */
import http from 'http';
import type net from 'net';

import { handleControl, isControlPath } from './control';
import { EmulatorCore, sendJson } from './core';
import { completeLink, LinkCompletionError, linkUrl } from './handlers/links';
import { addOwnCredential, ownCredentialsOf } from './handlers/ownCredential';
import { DEFAULT_MASTER_TOKEN, DEFAULT_PARTNER, DEFAULT_SECRET } from './fixtures';
import { createFront } from './front';
import { recordRun } from './runControl';
import { setTransactionsUsed } from './handlers/userLifecycle';
import { clearPlan, isBlocked } from './handlers/billing';
import type { Emulator, EmulatorOptions } from './types';
import type { EmulatorClock } from './clockApi';

export * from './types';
export type { ListLag } from './listLag';
export * as fixtures from './fixtures';
export { METHOD_HEADER } from './front';
export { ERROR_STYLES } from './core';
export { LinkCompletionError };
export { LINK_LIFETIME_MS } from './connections';

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
	const core = new EmulatorCore(
		options.secret ?? DEFAULT_SECRET,
		options.initialStatus ?? 0,
		options.log,
		{
			name: DEFAULT_PARTNER,
			masterToken: DEFAULT_MASTER_TOKEN,
			acceptStyles: 'any',
			sessionTokenSeconds: 3600,
			...options.partner,
		},
	);
	const httpServer = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
		serveRequest(core, req, res).catch(() => res.destroy());
	});
	const front = createFront(httpServer, options.tls);
	// Track sockets so close() does not wait for idle keep-alive connections.
	const sockets = new Set<net.Socket>();
	front.on('connection', (socket: net.Socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});

	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		front.once('error', reject);
		front.listen(options.port ?? 0, host, () => {
			front.off('error', reject);
			resolve();
		});
	});
	const { port } = front.address() as net.AddressInfo;
	const urlHost = host.includes(':') ? `[${host}]` : host;
	const close = () =>
		new Promise<void>((resolve) => {
			front.close(() => resolve());
			for (const socket of sockets) socket.destroy();
		});
	return emulatorOf(core, `${options.tls ? 'https' : 'http'}://${urlHost}:${port}`, close);
}

/** The emulator as code drives it (`Emulator`), over one core. */
function emulatorOf(core: EmulatorCore, baseUrl: string, close: () => Promise<void>): Emulator {
	return {
		baseUrl,
		token: (claims) => core.token(claims),
		requests: core.requests,
		faults: {
			add: (rule) => core.faults.add(rule),
			clear: () => core.faults.clear(),
			list: () => core.faults.list(),
		},
		setErrorStyle: (style) => core.setErrorStyle(style),
		setVariants: (v) => core.setVariants(v),
		setListLag: (lag) => core.state.listLag.set(lag),
		partner: {
			get name() {
				return core.partner.name;
			},
			get masterToken() {
				return core.partner.masterToken;
			},
			settings: () => ({ ...core.partner }),
			set: (settings) => core.setPartner(settings),
		},
		state: core.state,
		removeInstallation: (id) => core.removeInstallation(id),
		setRateLimit: (rule) => core.setRateLimit(rule),
		rateLimit: () => core.rateLimit?.stats ?? null,
		recordRun: (run) => recordRun(core.state, run),
		runs: () => [...core.state.runHistory.runs.values()],
		setTransactionsUsed: (id, used) => setTransactionsUsed(core.state, core.partner.name, id, used),
		billing: {
			clearPlan: (id) => clearPlan(core.state, core.partner.name, id),
			isBlocked: (id) => isBlocked(core.state, core.partner.name, id),
		},
		links: linksOf(core),
		clock: clockOf(core),
		setUpdateUserData: (rule) => core.state.connections.setRefresh(rule),
		ownCredentials: {
			add: (sub, values, title) => addOwnCredential(core.state, sub, values, title),
			list: (sub) =>
				sub === undefined
					? [...core.state.connections.ownCredentials.values()]
					: ownCredentialsOf(core.state, sub),
		},
		reset: () => core.reset(),
		close,
	};
}

/** Connection by link, as `emu.links` gives it. */
function linksOf(core: EmulatorCore): Emulator['links'] {
	const connections = core.state.connections;
	const linkOf = (id: number) => {
		const link = connections.links.get(id);
		if (!link) throw new Error(`Sharing ${id} not found`);
		return link;
	};
	return {
		complete: (id, opts) => completeLink(core.state, id, opts),
		get: (id) => connections.links.get(id),
		list: () => [...connections.links.values()],
		url: (id) => linkUrl(linkOf(id)),
		expiresAt: (id) => connections.expiresAt(linkOf(id)),
	};
}

/** Where requests enter: control routes (`/__emulator/...`) go to the control surface, the rest to the service. */
async function serveRequest(
	core: EmulatorCore,
	req: http.IncomingMessage,
	res: http.ServerResponse,
): Promise<void> {
	const request = await core.receive(req, res);
	if (!request) return;
	if (isControlPath(request.path)) {
		const out = handleControl(core, request.method, request.path, request.rawBody);
		return sendJson(res, out.status, out.body);
	}
	await core.respond(request, req, res);
}

/** The emulator's clock, as `emu.clock` gives it. */
function clockOf(core: EmulatorCore): EmulatorClock {
	const connections = () => core.state.connections;
	return {
		now: () => connections().now(),
		advance: (ms) => connections().advance(ms),
		set: (at) => connections().setNow(at),
		freeze: (on) => connections().freeze(on),
	};
}
