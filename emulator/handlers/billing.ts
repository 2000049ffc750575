/**
 * Billing (wiki.albato.com Embedded API Documentation), authorised by the partner's
 * master token exactly as add-user is (see partner.ts):
 *   GET | POST /wl/{partner}/list-plans                         → [{id, monthlyTrx}]
 *   POST /wl/{partner}/block-user-plan             {id}          → []
 *   POST /wl/{partner}/add-user-plan-transactions  {id, count}   → []
 *
 * What the pages say: block-user-plan "lets you block an existing user's billing plan. When applied,
 * all user integrations are paused and no new integrations can be started." add-user-plan-transactions:
 * "the users must already have an active billing plan"; count "should be greater than 0 and be a
 * multiple of 100".
 *
 * Choices (emulator/README.md "Billing"): a blocked user's installations are paused at once; PLAY and
 * install answer 422 "User billing plan is blocked: …"; set-user-plan lifts the block (variant
 * `setPlanUnblocks: 'no'` keeps it) and leaves the installations paused; a blocked user, or one whose
 * plan was taken away (control call), has no active plan: add-user-plan-transactions answers 400.
 * Extra transactions add to what is left this month (`trxLimit` of the profile).
 */
import { ApiError } from '../errors';
import { PLANS } from '../fixtures';
import { recordsOf } from '../indexedMap';
import type { EmulatorState, EndUserRecord } from '../types';
import { byMethodOnly, type Handler, type HandlerContext, isPlainObject, nowIso } from './context';
import { bodyId, endUserKey, namedUser } from './endUserIds';

/** The service's words when a blocked user's integration would start (PLAY, install). */
export const BLOCKED_MESSAGE =
	'User billing plan is blocked: integrations cannot be started for this user';

/** Throws 422 when the subject's billing plan is blocked (PLAY, install). */
export function assertNotBlocked(state: EmulatorState, sub: string): void {
	if (state.billing.blocked.has(sub)) throw new ApiError(422, BLOCKED_MESSAGE);
}

/** Whether the user has an active billing plan: not blocked, and a plan set. */
export function hasActivePlan(state: EmulatorState, sub: string): boolean {
	const store = state.billing;
	return !store.blocked.has(sub) && !store.planless.has(sub);
}

/** After set-user-plan: the user has a plan again; the block is lifted unless the variant keeps it. */
export function planSet(ctx: HandlerContext, sub: string): void {
	const store = ctx.state.billing;
	store.planless.delete(sub);
	if (ctx.variants.setPlanUnblocks === 'yes') store.blocked.delete(sub);
}

function bodyOf(ctx: HandlerContext): Record<string, unknown> {
	return isPlainObject(ctx.body) ? ctx.body : {};
}

/** The body's `id`, the user it names (404 when unknown), after the other fields' errors (400). */
function userOf(
	ctx: HandlerContext,
	extra: Array<{ field: string; message: string }> = [],
): EndUserRecord {
	return namedUser(ctx, bodyId(ctx, extra));
}

/** list-plans by GET or POST: both by default (the page's "GET | POST"); variant `listPlansMethod` allows one, the other answers 405. */
export const listPlansBy = (method: 'GET' | 'POST'): Handler =>
	byMethodOnly(
		method,
		'list-plans',
		(ctx) => ctx.variants.listPlansMethod,
		() => ({
			data: PLANS.map((plan) => ({ id: plan.id, monthlyTrx: plan.trxLimit })),
		}),
	);

export const blockUserPlan: Handler = (ctx) => {
	const user = userOf(ctx);
	ctx.state.billing.blocked.add(user.sub);
	const now = nowIso();
	for (const inst of recordsOf(ctx.state.installations, user.sub)) {
		if (inst.status === 0) continue;
		inst.status = 0;
		inst.dateUpdated = now;
	}
	return { data: [] };
};

export const addUserPlanTransactions: Handler = (ctx) => {
	const count = bodyOf(ctx).count;
	const extra = [];
	if (count === undefined) extra.push({ field: 'count', message: 'count is required' });
	else if (!Number.isInteger(count) || (count as number) <= 0 || (count as number) % 100 !== 0)
		extra.push({
			field: 'count',
			message: 'count must be greater than 0 and a multiple of 100',
		});
	const user = userOf(ctx, extra);
	if (!hasActivePlan(ctx.state, user.sub))
		throw new ApiError(400, [
			{ field: 'id', message: 'The user has no active billing plan to add transactions to' },
		]);
	const store = ctx.state.billing;
	store.extra.set(user.sub, (store.extra.get(user.sub) ?? 0) + (count as number));
	return { data: [] };
};

/** Takes a user's plan away (control surface): no active plan until set-user-plan. */
export function clearPlan(state: EmulatorState, partner: string, id: string): void {
	const user = state.endUsers.get(endUserKey(partner, String(id)));
	if (!user) throw new Error(`unknown end user "${id}"`);
	state.billing.planless.add(user.sub);
}

/** Whether an end user (the partner's own id) is blocked (control surface, tests). */
export function isBlocked(state: EmulatorState, partner: string, id: string): boolean {
	const user = state.endUsers.get(endUserKey(partner, String(id)));
	return !!user && state.billing.blocked.has(user.sub);
}
