/** The control surface under /__emulator/ (outside the spec; no auth; never logged). */
import { CONNECTIONS_CONTROL_ROUTES, handleConnectionsControl } from './connectionsControl';
import {
	FLEET_CONTROL_ROUTES,
	fleetStatus,
	seedFleet,
	type FleetSpec,
	type RequestSummary,
} from './fleetControl';
import { RUN_CONTROL_ROUTES, handleRunControl } from './runControl';
import { faultFromJson, faultToJson, type FaultStore } from './faults';
import { listLagOf, type ListLag } from './listLag';
import type { RateLimit } from './rateLimit';
import type {
	EmulatorState,
	ErrorStyle,
	PartnerSettings,
	RateLimitRule,
	RequestLogEntry,
	TokenClaims,
	Variants,
} from './types';

/** What the control surface drives: the emulator's core, described here so this file needs no import of it. */
export interface Controlled {
	readonly state: EmulatorState;
	readonly faults: FaultStore;
	readonly requests: RequestLogEntry[];
	readonly variants: Variants;
	readonly partner: PartnerSettings;
	readonly rateLimit: RateLimit | null;
	readonly summary: RequestSummary;
	keepLog: boolean;
	readonly secret: string;
	readonly initialStatus: 0 | 1;
	removeInstallation(id: number): void;
	reset(): void;
	setErrorStyle(style: ErrorStyle): void;
	setVariants(variants: Partial<Variants>): void;
	token(claims?: TokenClaims): string;
	setPartner(settings: Partial<PartnerSettings>): void;
	setRateLimit(rule: RateLimitRule | null): void;
}

/** Whether a path belongs to the control surface rather than to the service. */
export const isControlPath = (path: string) =>
	path === '/__emulator' || path.startsWith('/__emulator/');

export const CONTROL_ROUTES = [
	'GET    /__emulator/requests            the request log',
	'DELETE /__emulator/requests            clear the request log',
	'GET    /__emulator/faults              pending fault rules',
	'POST   /__emulator/faults              add a rule (JSON; "regex": true makes "path" a RegExp source; "customers": {"share", "seed"?, "solutionId"?} limits it to a share of the end users)',
	'DELETE /__emulator/faults              clear all rules',
	'POST   /__emulator/reset               back to the fixtures',
	'POST   /__emulator/error-style         {"style": "errors" | "yii" | "message" | "text"}',
	'POST   /__emulator/variants            partial Variants, e.g. {"bare": true}',
	'POST   /__emulator/list-lag          {"reads"?, "ms"?}: new installations are missing from the list for N reads / T ms',
	'POST   /__emulator/token               {"sub"?, "expiresInSeconds"?, "exp"?} → {"token"}',
	'GET    /__emulator/partner             partner name, master token, accepted Basic styles, session lifetime',
	'POST   /__emulator/partner             partial settings, e.g. {"acceptStyles": "raw", "sessionTokenSeconds": 5}',
	'GET    /__emulator/state               installations, bundles, bundle data, credentials',
	'DELETE /__emulator/installations/{id}  remove an installation (as if removed elsewhere)',
	'POST   /__emulator/rate-limit          {"maxConcurrent", "retryAfterSeconds"? = 1, "serviceMs"? = 0}: 429 above it',
	'GET    /__emulator/rate-limit          the rule and its counters (active, peak, admitted, rejected), or null',
	'DELETE /__emulator/rate-limit          lift it',
	...RUN_CONTROL_ROUTES,
	...FLEET_CONTROL_ROUTES,
	...CONNECTIONS_CONTROL_ROUTES,
];

interface ControlResult {
	status: number;
	body: unknown;
}

const ok = (body: unknown = { ok: true }): ControlResult => ({ status: 200, body });
const bad = (message: string): ControlResult => ({ status: 400, body: { error: message } });

export function handleControl(
	core: Controlled,
	method: string,
	path: string,
	raw: Buffer,
): ControlResult {
	let body: unknown = {};
	if (raw.length) {
		try {
			body = JSON.parse(raw.toString('utf8'));
		} catch {
			return bad('body must be JSON');
		}
	}
	try {
		const route = `${method} ${path.replace(/\/+$/, '')}`;
		const runs = handleRunControl(core.state, core.partner.name, route, body);
		if (runs) return runs;
		const removal = /^DELETE \/__emulator\/installations\/(\d+)$/.exec(route);
		if (removal) {
			core.removeInstallation(Number(removal[1]));
			return ok();
		}
		const connections = handleConnectionsControl(core.state, route, body);
		if (connections) return connections;
		switch (route) {
			case 'GET /__emulator':
				return ok({ routes: CONTROL_ROUTES });
			case 'GET /__emulator/requests':
				return ok(core.requests);
			case 'DELETE /__emulator/requests':
				core.requests.length = 0;
				core.summary.clear();
				return ok();
			case 'GET /__emulator/requests/summary':
				return ok(core.summary.toJson());
			case 'POST /__emulator/requests/keep':
				core.keepLog = (body as { keep?: unknown }).keep !== false;
				return ok({ keep: core.keepLog });
			case 'POST /__emulator/fleet':
				return {
					status: 201,
					body: seedFleet(
						{
							state: core.state,
							variants: core.variants,
							partner: core.partner,
							secret: core.secret,
							initialStatus: core.initialStatus,
						},
						body as FleetSpec,
					),
				};
			case 'POST /__emulator/fleet/status':
				return ok(fleetStatus(core.state, core.partner.name, body as Record<string, unknown>));
			case 'GET /__emulator/faults':
				return ok(core.faults.list().map(faultToJson));
			case 'POST /__emulator/faults':
				core.faults.add(faultFromJson(body));
				return { status: 201, body: { ok: true } };
			case 'DELETE /__emulator/faults':
				core.faults.clear();
				return ok();
			case 'POST /__emulator/reset':
				core.reset();
				return ok();
			case 'POST /__emulator/error-style':
				core.setErrorStyle((body as { style: ErrorStyle }).style);
				return ok();
			case 'POST /__emulator/variants':
				core.setVariants(body as Partial<Variants>);
				return ok({ variants: core.variants });
			case 'POST /__emulator/list-lag':
				listLagOf(core.state).set(body as ListLag);
				return ok({ listLag: listLagOf(core.state).lag });
			case 'POST /__emulator/token':
				return ok({ token: core.token(body as TokenClaims) });
			case 'GET /__emulator/partner':
				return ok(core.partner);
			case 'POST /__emulator/partner':
				core.setPartner(body as Partial<PartnerSettings>);
				return ok(core.partner);
			case 'POST /__emulator/rate-limit':
				core.setRateLimit(body as RateLimitRule);
				return ok(core.rateLimit?.stats);
			case 'GET /__emulator/rate-limit':
				return ok(core.rateLimit?.stats ?? null);
			case 'DELETE /__emulator/rate-limit':
				core.setRateLimit(null);
				return ok();
			case 'GET /__emulator/state':
				return ok(stateAsJson(core));
			default:
				return {
					status: 404,
					body: { error: `unknown control route ${route}`, routes: CONTROL_ROUTES },
				};
		}
	} catch (err) {
		return bad((err as Error).message);
	}
}

function stateAsJson(core: Controlled) {
	const { state } = core;
	return {
		installations: [...state.installations.values()],
		bundles: [...state.bundles.values()],
		bundleData: [...state.bundleData.values()],
		credentials: [...state.credentials.values()],
		// Without their tokens: the log and the state stay safe to print.
		endUsers: [...state.endUsers.values()].map(({ permanentToken: _secret, ...user }) => user),
		nextIds: state.nextIds,
	};
}
