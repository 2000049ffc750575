/**
 * Fleets: seeding thousands of partner end users in one control call, and a request
 * summary that stays small however many calls a fleet job sends. Kept apart from control.ts.
 *
 * `POST /__emulator/fleet` creates, per customer, what the partner's own calls would have made:
 * the end user (add-user), one installation of `solutionId` with `templateIds` (the install
 * handler, so bundles, steps and field values are the fixtures'), its status, and `runsPerBundle`
 * runs per automation (run history). It goes through the same handlers as the HTTP calls, without
 * HTTP or the request log, so 10,000 customers take seconds.
 */
import { addUser } from './handlers/partner';
import { install } from './handlers/solutions';
import type { HandlerContext } from './handlers/context';
import { recordRun } from './runControl';
import type { RunOutcome } from './runTypes';
import type { EmulatorState, PartnerSettings, RequestLogEntry, Variants } from './types';

export const FLEET_CONTROL_ROUTES = [
	'POST   /__emulator/fleet               {"count", "idPrefix"?, "solutionId"?, "templateIds"?, "credentialData"?, "title"?, "status"?, "runsPerBundle"?, "runOutcome"?} → {"customers": [{"id", "installationId", "bundleIds"}]}',
	'GET    /__emulator/requests/summary    calls by kind ("METHOD /path" with ids as {id}), by status, 429s, token calls per end user',
	'POST   /__emulator/requests/keep       {"keep": false}: count requests in the summary only (the log stays empty); true: log again',
];

export interface FleetSpec {
	count: number;
	/** Customer ids are `<idPrefix><n>`, n zero-padded to 5 digits from `start`. Default "fleet-". */
	idPrefix?: string;
	start?: number;
	solutionId?: number;
	templateIds?: number[];
	credentialData?: Record<string, string>;
	/** `{id}` is replaced by the customer id. Default "Leads of {id}". */
	title?: string;
	/** Status of each installation. Default 1 (active). */
	status?: 0 | 1;
	runsPerBundle?: number;
	runOutcome?: RunOutcome;
}

export interface FleetDeps {
	state: EmulatorState;
	variants: Variants;
	partner: PartnerSettings;
	secret: string;
	initialStatus: 0 | 1;
}

const DEFAULT_CREDENTIAL_DATA = {
	crm: 'hubspot',
	hubspotPipeline: 'sales',
	hubspotStage: 'new',
	mailer: 'mailchimp',
};

export function seedFleet(deps: FleetDeps, spec: FleetSpec) {
	const count = Number(spec.count);
	if (!Number.isInteger(count) || count < 1 || count > 100_000)
		throw new Error('fleet: count must be a whole number from 1 to 100000');
	const prefix = spec.idPrefix ?? 'fleet-';
	const start = spec.start ?? 0;
	const solutionId = spec.solutionId ?? 101;
	const templateIds = spec.templateIds ?? [1011, 1012];
	const credentialData = spec.credentialData ?? DEFAULT_CREDENTIAL_DATA;
	const title = spec.title ?? 'Leads of {id}';
	const status = spec.status ?? 1;
	const runsPerBundle = spec.runsPerBundle ?? 1;
	const context = (user: string, id: number, body: unknown): HandlerContext => ({
		user,
		state: deps.state,
		id,
		query: {},
		body,
		variants: deps.variants,
		initialStatus: deps.initialStatus,
		partner: { settings: deps.partner, secret: deps.secret },
	});
	const customers = [];
	for (let n = start; n < start + count; n++) {
		const id = `${prefix}${String(n).padStart(5, '0')}`;
		addUser(context(`partner:${deps.partner.name}`, 0, { id }));
		const sub = `${deps.partner.name}:${id}`;
		install(
			context(sub, solutionId, {
				title: title.replace('{id}', id),
				templateIds,
				credentialData,
			}),
		);
		const installation = deps.state.installations.get(deps.state.nextIds.installation - 1)!;
		installation.status = status;
		for (const bundleId of installation.bundleIds)
			for (let r = 0; r < runsPerBundle; r++)
				recordRun(deps.state, { bundleId, outcome: spec.runOutcome ?? 'succeeded' });
		customers.push({ id, installationId: installation.id, bundleIds: installation.bundleIds });
	}
	return { customers };
}

/** Counts of the calls served, by kind and status: what a fleet benchmark reads instead of the log. */
export class RequestSummary {
	byKind: Record<string, number> = {};
	byStatus: Record<string, number> = {};
	rateLimited = 0;
	total = 0;
	tokenCallsByUser = new Map<string, number>();

	add(entry: RequestLogEntry): void {
		this.total++;
		const kind = `${entry.method} ${kindOf(entry.path)}`;
		this.byKind[kind] = (this.byKind[kind] ?? 0) + 1;
		const status = String(entry.status || 'reset');
		this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
		if (entry.status === 429) this.rateLimited++;
		if (/\/get-user-session-token$/.test(entry.path)) {
			const body = entry.body as { id?: unknown } | undefined;
			const id = String(body?.id ?? body ?? '');
			this.tokenCallsByUser.set(id, (this.tokenCallsByUser.get(id) ?? 0) + 1);
		}
	}

	clear(): void {
		this.byKind = {};
		this.byStatus = {};
		this.rateLimited = 0;
		this.total = 0;
		this.tokenCallsByUser.clear();
	}

	toJson() {
		const perUser = [...this.tokenCallsByUser.values()];
		const histogram: Record<string, number> = {};
		for (const calls of perUser) histogram[calls] = (histogram[calls] ?? 0) + 1;
		return {
			total: this.total,
			byKind: this.byKind,
			byStatus: this.byStatus,
			rateLimited: this.rateLimited,
			tokenCalls: {
				users: perUser.length,
				total: perUser.reduce((a, b) => a + b, 0),
				maxPerUser: perUser.length ? Math.max(...perUser) : 0,
				/** How many users had 1, 2, … token calls. */
				histogram,
			},
		};
	}
}

/** A path with its numeric segments as {id} and the partner segment of /wl as {partner}. */
export const kindOf = (path: string) =>
	path.replace(/^\/wl\/[^/]+\//, '/wl/{partner}/').replace(/\/\d+(?=\/|$)/g, '/{id}');
