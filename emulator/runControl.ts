/** Control routes for run history and end-user usage; kept apart from control.ts. */
import { clearPlan } from './handlers/billing';
import { countTransaction, setTransactionsUsed } from './handlers/userLifecycle';
import { handleStreamControl, RUN_STREAM_ROUTES } from './runStreamControl';
import type { RunInput, RunRecord } from './runTypes';
import type { EmulatorState } from './types';

export const RUN_CONTROL_ROUTES = [
	'POST   /__emulator/runs                record a run {"bundleId", "outcome"?, "status"?, "event"?, "dateCreated"?, "steps"?: [[{…}]], "id"?} → 201 the run',
	'GET    /__emulator/runs                every recorded run (all users)',
	...RUN_STREAM_ROUTES,
	'POST   /__emulator/end-users/transactions  {"id", "used"}: an end user\'s transactions used this month',
	'POST   /__emulator/end-users/clear-plan    {"id"}: takes the user\'s plan away (no active plan until set-user-plan)',
];

/** Records a run and counts it as one transaction of its owner (when a /wl end user). */
export function recordRun(state: EmulatorState, input: RunInput): RunRecord {
	const run = state.runHistory.record(input);
	countTransaction(state, run.bundleId);
	return run;
}

/** Answers `route` ("METHOD /path") when it is one of these control routes; throws Error → 400. */
export function handleRunControl(
	state: EmulatorState,
	partner: string,
	route: string,
	body: unknown,
): { status: number; body: unknown } | undefined {
	const streams = handleStreamControl(
		state,
		partner,
		route,
		(body ?? {}) as Record<string, unknown>,
	);
	if (streams) return streams;
	switch (route) {
		case 'POST /__emulator/runs':
			return { status: 201, body: recordRun(state, body as RunInput) };
		case 'GET /__emulator/runs':
			return { status: 200, body: [...state.runHistory.runs.values()] };
		case 'POST /__emulator/end-users/transactions': {
			const { id, used } = body as { id: string; used: number };
			setTransactionsUsed(state, partner, id, used);
			return { status: 200, body: { ok: true } };
		}
		case 'POST /__emulator/end-users/clear-plan': {
			clearPlan(state, partner, (body as { id: string }).id);
			return { status: 200, body: { ok: true } };
		}
		default:
			return undefined;
	}
}
