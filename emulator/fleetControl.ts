/**
 * Fleets: seeding thousands of partner end users in one control call (a control module: the
 * request pipeline never imports it; the request summary is requestSummary.ts).
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
import { attachStream, clockOf, makeStream, type StreamSpec } from './runStream';
import type { RunOutcome } from './runTypes';
import { recordsOf } from './indexedMap';
import type { EmulatorState, InstallationRecord, PartnerSettings, Variants } from './types';

export const FLEET_CONTROL_ROUTES = [
	'POST   /__emulator/fleet               {"count", "idPrefix"?, "solutionId"?, "templateIds"?, "credentialData"?, "title"?, "status"?, "runsPerBundle"?, "runOutcome"?, "runsPerDay"?, "runStream"?: {"seed", "origin", …}} → {"customers": [{"id", "installationId", "bundleIds"}]}',
	'GET    /__emulator/requests/summary    calls by kind ("METHOD /path" with ids as {id}), by status, 429s, token calls per end user',
	'POST   /__emulator/requests/keep       {"keep": false}: count requests in the summary only (the log stays empty); true: log again',
	'POST   /__emulator/fleet/status        {"idPrefix", "field"?}: per seeded customer of that prefix, its installations as [id, title, status, value of "field"] (what a fleet check reads instead of /state), and bothActive: the moments a customer had two active copies',
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
	/** Default 1, or 0 with `runsPerDay`. */
	runsPerBundle?: number;
	runOutcome?: RunOutcome;
	/** A computed run stream on every automation (runStream.ts), this many runs a day each. */
	runsPerDay?: number;
	/** The stream's other settings (seed, origin, shares). */
	runStream?: Omit<StreamSpec, 'runsPerDay'>;
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
	const { prefix, start, solutionId, templateIds, credentialData, title, status } =
		withDefaults(spec);
	const { stream, runsPerBundle } = runsOfFleet(deps.state, spec);
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
		if (stream) attachStream(deps.state, installation.bundleIds, stream);
		for (const bundleId of installation.bundleIds)
			for (let r = 0; r < runsPerBundle; r++)
				recordRun(deps.state, { bundleId, outcome: spec.runOutcome ?? 'succeeded' });
		customers.push({ id, installationId: installation.id, bundleIds: installation.bundleIds });
	}
	return { customers };
}

/** The spec with its defaults filled in. */
function withDefaults(spec: FleetSpec) {
	return {
		prefix: spec.idPrefix ?? 'fleet-',
		start: spec.start ?? 0,
		solutionId: spec.solutionId ?? 101,
		templateIds: spec.templateIds ?? [1011, 1012],
		credentialData: spec.credentialData ?? DEFAULT_CREDENTIAL_DATA,
		title: spec.title ?? 'Leads of {id}',
		status: spec.status ?? 1,
	};
}

/** The fleet's run stream (with `runsPerDay`: one for every customer) and its recorded runs per automation. */
function runsOfFleet(state: EmulatorState, spec: FleetSpec) {
	if (spec.runsPerDay === undefined)
		return { stream: undefined, runsPerBundle: spec.runsPerBundle ?? 1 };
	const stream = makeStream({ ...spec.runStream, runsPerDay: spec.runsPerDay }, clockOf(state));
	return { stream, runsPerBundle: spec.runsPerBundle ?? 0 };
}

/**
 * Per customer of a seeded prefix: its installations as `[id, title, status, value]`, `value` being
 * the first step field named `field` in the installation's bundles (null without one). A few MB at
 * 100,000 customers, where GET /state would serialise every record of every seed.
 */
export function fleetStatus(
	state: EmulatorState,
	partner: string,
	spec: { idPrefix?: unknown; field?: unknown },
) {
	if (typeof spec.idPrefix !== 'string' || spec.idPrefix === '')
		throw new Error('fleet/status: idPrefix is required');
	const field = typeof spec.field === 'string' ? spec.field : undefined;
	const valueOf = (installation: InstallationRecord) => {
		if (!field) return null;
		for (const bundleId of installation.bundleIds)
			for (const stepId of state.bundles.get(bundleId)?.stepIds ?? []) {
				const found = state.bundleData.get(stepId)?.fields.find((f) => f.name === field);
				if (found) return found.value;
			}
		return null;
	};
	const customers: Record<string, [number, string, number, unknown][]> = {};
	for (const user of state.endUsers.values()) {
		if (user.partner !== partner || !user.id.startsWith(spec.idPrefix)) continue;
		customers[user.id] = recordsOf(state.installations, user.sub).map((i) => [
			i.id,
			i.title,
			i.status,
			valueOf(i),
		]);
	}
	// Two active copies of one customer's installation, counted as they happened (activeCopies.ts).
	return { customers, bothActive: state.activeCopies.summary() };
}
