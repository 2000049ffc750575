/**
 * The trigger never invents events, through n8n-core's PollContext against the emulator over HTTP:
 * a list answer it cannot read fails the poll and leaves the baseline alone; an installation
 * missing from the list is reported removed only when its detail answers 404; a confirmation that
 * fails is asked again next poll; nothing is lost or repeated.
 *
 * Bodies the emulator never sends (an empty 200, `data: null`…) come from a small proxy in front of
 * it that rewrites the list answer; every other call goes through to the emulator unchanged.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { startEmulator, type Emulator, type FaultRule } from '../../emulator';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';

const ALL = [
	'installationCreated',
	'installationStarted',
	'installationPaused',
	'installationRemoved',
];
const LIST = 'GET /solution/installation';
const detail = (id: number) => `GET /solution/installation/${id}`;

/** Rewrites the next list answers: a raw body to send instead, or a change to the real answer. */
type Rewrite = { body: string } | { edit: (data: IDataObject[]) => IDataObject[] };

let emu: Emulator;
let proxy: { baseUrl: string; rewrites: Rewrite[]; close(): Promise<void> };

async function listProxy(target: string) {
	const rewrites: Rewrite[] = [];
	const server = http.createServer((req, res) => {
		const rewrite =
			req.method === 'GET' && req.url === '/solution/installation' ? rewrites.shift() : undefined;
		if (rewrite && 'body' in rewrite) {
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(rewrite.body);
			return;
		}
		const upstream = http.request(
			new URL(req.url ?? '/', target),
			{ method: req.method, headers: req.headers },
			(answer) => {
				const chunks: Buffer[] = [];
				answer.on('data', (chunk: Buffer) => chunks.push(chunk));
				answer.on('end', () => {
					let text = Buffer.concat(chunks).toString('utf8');
					if (rewrite && 'edit' in rewrite) {
						const parsed = JSON.parse(text) as { success: boolean; data: IDataObject[] };
						text = JSON.stringify({ ...parsed, data: rewrite.edit(parsed.data) });
					}
					res.writeHead(answer.statusCode ?? 502, { 'Content-Type': 'application/json' });
					res.end(text);
				});
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		rewrites,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
	proxy = await listProxy(emu.baseUrl);
});
afterAll(async () => {
	await proxy.close();
	await emu.close();
});
beforeEach(() => {
	emu.reset();
	proxy.rewrites.length = 0;
});

function context(staticData: IDataObject): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: { events: ALL, solutionId: { __rl: true, mode: 'id', value: '' } },
		credentials: { albatoSolutionsApi: { baseUrl: proxy.baseUrl, accessToken: emu.token() } },
		staticData,
		mode: 'trigger',
	});
}

async function poll(staticData: IDataObject) {
	const first = emu.requests.length;
	const output = await new AlbatoSolutionsTrigger().poll.call(context(staticData));
	return {
		events: (output ? output[0].map((item) => item.json) : []).map((event) => [
			event.installationId,
			event.event,
		]),
		calls: emu.requests.slice(first).map((request) => `${request.method} ${request.path}`),
	};
}
const saved = (staticData: IDataObject) => JSON.parse(JSON.stringify(staticData)) as IDataObject;

describe('an unreadable list answer fails the poll and leaves the baseline alone', () => {
	it.each([
		['an empty body', ''],
		['data: null', '{"success": true, "data": null}'],
		['an object where the list belongs', '{"success": true, "data": {"total": 2}}'],
		['a string where the list belongs', '{"success": true, "data": "installations"}'],
		['a bare null', 'null'],
	])('%s', async (_name, body) => {
		const staticData: IDataObject = {};
		await poll(staticData);
		const baseline = saved(staticData);
		proxy.rewrites.push({ body });
		await expect(poll(staticData)).rejects.toThrow(/list of installations could not be read/);
		expect(saved(staticData)).toEqual(baseline);
		// The next readable answer: nothing was removed, nothing was created.
		expect(await poll(staticData)).toEqual({ events: [], calls: [LIST] });
	});

	it('an empty list is a readable answer: removals are confirmed one by one', async () => {
		const staticData: IDataObject = {};
		await poll(staticData);
		proxy.rewrites.push({ body: '{"success": true, "data": []}' });
		const { events, calls } = await poll(staticData);
		expect(events).toEqual([]);
		expect(calls.sort()).toEqual([detail(5001), detail(5002)]); // the list itself came from the proxy
	});
});

describe('Removed only when confirmed', () => {
	/**
	 * 5002 is removed and its first confirmation read fails with `rule`: pending, asked again, then
	 * Removed once.
	 */
	async function removedAfterOneFailedConfirmation(rule: Omit<FaultRule, 'method' | 'path'>) {
		const staticData: IDataObject = {};
		await poll(staticData);
		emu.removeInstallation(5002);
		emu.faults.add({ method: 'GET', path: '/solution/installation/5002', ...rule });
		const first = await poll(staticData);
		expect(first).toEqual({ events: [], calls: [LIST, detail(5002)] });
		const second = await poll(staticData);
		expect(second).toEqual({
			events: [[5002, 'installationRemoved']],
			calls: [LIST, detail(5002)],
		});
		expect(await poll(staticData)).toEqual({ events: [], calls: [LIST] });
	}

	it('left out of one list (lag, paging) but still there: no Removed, and no Created when it is back', async () => {
		const staticData: IDataObject = {};
		await poll(staticData);
		proxy.rewrites.push({
			edit: (data) => data.filter((installation) => installation.id !== 5001),
		});
		expect(await poll(staticData)).toEqual({ events: [], calls: [LIST, detail(5001)] });
		expect(await poll(staticData)).toEqual({ events: [], calls: [LIST] });
	});

	it('left out of the list while its status changed: the detail reports the change, once', async () => {
		const staticData: IDataObject = {};
		await poll(staticData);
		emu.state.installations.get(5002)!.status = 1;
		proxy.rewrites.push({
			edit: (data) => data.filter((installation) => installation.id !== 5002),
		});
		expect((await poll(staticData)).events).toEqual([[5002, 'installationStarted']]);
		expect((await poll(staticData)).events).toEqual([]);
	});

	it('the confirmation fails: pending, asked again next poll, then Removed exactly once', async () => {
		await removedAfterOneFailedConfirmation({ status: 500 });
	});

	it('the confirmation answers 200 with an empty body: pending (not "still there"), then Removed exactly once', async () => {
		await removedAfterOneFailedConfirmation({ emptyBody: true, status: 200 });
	});

	it('other changes of a poll are still reported while a removal is pending', async () => {
		const staticData: IDataObject = {};
		await poll(staticData);
		emu.removeInstallation(5002);
		emu.state.installations.get(5001)!.status = 0;
		emu.faults.add({ method: 'GET', path: '/solution/installation/5002', status: 500 });
		expect((await poll(staticData)).events).toEqual([[5001, 'installationPaused']]);
		expect((await poll(staticData)).events).toEqual([[5002, 'installationRemoved']]);
	});
});
