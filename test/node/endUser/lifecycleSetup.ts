/** Helpers of the End User lifecycle tests: the /wl paths and one call per path. */
import type { NodeRun } from '../../support/setup';

export const PROFILE_PATH = /^\/wl\/[^/]+\/get-user-profile$/;
export const SET_PLAN_PATH = /^\/wl\/[^/]+\/set-user-plan$/;
export const DELETE_PATH = /^\/wl\/[^/]+\/delete-user$/;

export const callsTo = (run: NodeRun, path: RegExp) =>
	run.calls.filter((call) => path.test(call.split(' ')[1])).length;
