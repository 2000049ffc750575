/** Control calls of the connection endpoints (connection by link, own connection) (under /__emulator/, no auth, never logged). */
import type { ConnectionsStore, REFRESH_PRESETS } from './connections';
import { completeLink, LinkCompletionError, linkUrl, renderCredential } from './handlers/links';
import { addOwnCredential, ownCredentialsOf } from './handlers/ownCredential';
import type { EmulatorState } from './types';

export const CONNECTIONS_CONTROL_ROUTES = [
	'GET    /__emulator/links                 sharings (connection by link), without their tokens',
	'POST   /__emulator/links/{id}/complete   {"values"?, "title"?}: the customer connects → {credential, link}; 404 unknown, 409 expired or used',
	'GET    /__emulator/clock                 {"now"} (the emulator clock: link expiry, dateCreated)',
	'POST   /__emulator/clock                 {"advanceSeconds"} or {"advanceMs"} or {"now": ISO}: move it; "freeze": true stops it (false: runs on)',
	'POST   /__emulator/update-user-data      {"mode": "progress" | "requeued"} or {"sequence": [1, 2, 3]}',
	'POST   /__emulator/own-credentials       {"sub"?, "values", "title"?}: seed one more own connection of a user',
	'GET    /__emulator/own-credentials       own connections (values unmasked)',
];

interface ControlResult {
	status: number;
	body: unknown;
}

/** Publicly safe view of a sharing: the token left out (the link itself carries it). */
function linkView(state: EmulatorState, id: number) {
	const store = state.connections;
	const link = store.links.get(id)!;
	return {
		id: link.id,
		userId: link.userId,
		partnerId: link.partnerId,
		title: link.title,
		credentialId: link.credentialId,
		createdAt: new Date(link.createdAt).toISOString(),
		expiresAt: new Date(store.expiresAt(link)).toISOString(),
		expired: store.isExpired(link),
	};
}

/** Answers the connections' control routes; undefined for any other route. `route` is "METHOD /path". */
export function handleConnectionsControl(
	state: EmulatorState,
	route: string,
	body: unknown,
): ControlResult | undefined {
	const store = state.connections;
	const input = (body ?? {}) as Record<string, unknown>;
	const complete = /^POST \/__emulator\/links\/(\d+)\/complete$/.exec(route);
	if (complete) {
		try {
			const credential = completeLink(state, Number(complete[1]), input);
			return {
				status: 200,
				body: {
					credential: renderCredential(credential),
					link: linkView(state, Number(complete[1])),
				},
			};
		} catch (err) {
			if (err instanceof LinkCompletionError)
				return { status: err.status, body: { error: err.message } };
			throw err;
		}
	}
	switch (route) {
		case 'GET /__emulator/links':
			return { status: 200, body: [...store.links.keys()].map((id) => linkView(state, id)) };
		case 'GET /__emulator/clock':
			return { status: 200, body: { now: new Date(store.now()).toISOString() } };
		case 'POST /__emulator/clock':
			moveClock(store, input);
			return { status: 200, body: { now: new Date(store.now()).toISOString() } };
		case 'POST /__emulator/update-user-data':
			return {
				status: 200,
				body: store.setRefresh(
					input as { mode?: keyof typeof REFRESH_PRESETS; sequence?: number[] },
				),
			};
		case 'POST /__emulator/own-credentials': {
			if (typeof input.values !== 'object' || input.values === null)
				throw new Error('"values" (an object of the own connection fields) is required');
			const record = addOwnCredential(
				state,
				typeof input.sub === 'string' ? input.sub : 'user-1',
				input.values as Record<string, string | number>,
				typeof input.title === 'string' ? input.title : undefined,
			);
			return { status: 201, body: record };
		}
		case 'GET /__emulator/own-credentials':
			return { status: 200, body: [...store.ownCredentials.values()] };
		default:
			return undefined;
	}
}

export { linkUrl, ownCredentialsOf };

/** POST /__emulator/clock: a move (`now`, `advanceSeconds`, `advanceMs`) and/or `freeze`. */
function moveClock(store: ConnectionsStore, input: Record<string, unknown>): void {
	if (typeof input.freeze === 'boolean') store.freeze(input.freeze);
	if (typeof input.now === 'string' || typeof input.now === 'number') store.setNow(input.now);
	else if (input.advanceSeconds !== undefined) store.advance(Number(input.advanceSeconds) * 1000);
	else if (input.advanceMs !== undefined) store.advance(Number(input.advanceMs));
	else if (typeof input.freeze !== 'boolean')
		throw new Error('give "advanceSeconds", "advanceMs", "now" or "freeze"');
}
