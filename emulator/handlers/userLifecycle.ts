/**
 * End-user lifecycle (wiki.albato.com Embedded API Documentation), authorised by the
 * partner's master token exactly as add-user is (see partner.ts):
 *   POST /wl/{partner}/get-user-profile[?expand=transactions]  {id}  → {id, email, language, timezoneOffset, planId?, trxLimit?}
 *   POST /wl/{partner}/set-user-plan                          {id, planId} → []
 *   POST /wl/{partner}/delete-user                            {id} → []
 * Deleting a user removes their installations (with bundles, bundle data and runs), credentials,
 * plan and usage, and makes every token of theirs answer 401.
 */
import { ApiError } from '../errors';
import { DEFAULT_PLAN_ID, PLANS } from '../fixtures';
import { recordsOf } from '../indexedMap';
import type { EmulatorState, EndUserRecord } from '../types';
import { planSet } from './billing';
import { isPlainObject, type Handler, type HandlerContext } from './context';
import { bodyId, endUserKey, namedUser } from './endUserIds';

/**
 * Throws 401 when the token's subject is a deleted end user (unless a user with the same id was
 * added again since). Called after the end-user token is verified.
 */
export function assertNotDeleted(state: EmulatorState, sub: string): string {
	if (!state.lifecycle.deleted.has(sub)) return sub;
	for (const user of state.endUsers.values()) if (user.sub === sub) return sub;
	throw new ApiError(401, 'This end user was deleted: their tokens no longer work');
}

/** The end user whose token subject is `sub` ("<partner>:<id>"), found by key without a scan. */
export function endUserOfSub(state: EmulatorState, sub: string): EndUserRecord | undefined {
	const colon = sub.indexOf(':');
	if (colon === -1) return undefined;
	const user = state.endUsers.get(endUserKey(sub.slice(0, colon), sub.slice(colon + 1)));
	return user?.sub === sub ? user : undefined;
}

export function planOf(state: EmulatorState, user: EndUserRecord) {
	const planId = state.lifecycle.plans.get(user.sub) ?? DEFAULT_PLAN_ID;
	return PLANS.find((p) => p.id === planId)!;
}

/** Transactions left this month: the plan's limit plus extra transactions (billing.ts), minus those used (never below 0). */
export function trxLeft(state: EmulatorState, user: EndUserRecord): number {
	const extra = state.billing.extra.get(user.sub) ?? 0;
	return Math.max(
		0,
		planOf(state, user).trxLimit + extra - (state.lifecycle.used.get(user.sub) ?? 0),
	);
}

function expandsTransactions(ctx: HandlerContext): boolean {
	const raw = ctx.query.expand;
	return typeof raw === 'string' && raw.split(',').some((n) => n.trim() === 'transactions');
}

export const getUserProfile: Handler = (ctx) => {
	const user = namedUser(ctx, bodyId(ctx));
	const plan = planOf(ctx.state, user);
	const used = ctx.state.lifecycle.used.get(user.sub) ?? 0;
	const data: Record<string, unknown> = {
		id: user.albatoId,
		email: user.email,
		language: user.language ?? 'en',
		timezoneOffset: user.timezoneOffset ?? 0,
	};
	if (ctx.variants.profileShape === 'billing') {
		// A plan taken away (billing.ts clearPlan): no plan, nothing left.
		const planless = ctx.state.billing.planless.has(user.sub);
		data.planId = planless ? null : plan.id;
		data.trxLimit = planless ? 0 : trxLeft(ctx.state, user);
	}
	if (expandsTransactions(ctx) && ctx.variants.profileTransactions === 'object')
		data.transactions = { limit: plan.trxLimit, used, left: trxLeft(ctx.state, user) };
	return { data };
};

export const setUserPlan: Handler = (ctx) => {
	const body = isPlainObject(ctx.body) ? ctx.body : {};
	const extra = [];
	if (body.planId === undefined) extra.push({ field: 'planId', message: 'planId is required' });
	else if (!Number.isInteger(body.planId))
		extra.push({ field: 'planId', message: 'planId must be an integer' });
	else if (!PLANS.some((p) => p.id === body.planId))
		extra.push({
			field: 'planId',
			message: `Unknown plan ${String(body.planId)}; plans: ${PLANS.map((p) => p.id).join(', ')}`,
		});
	const user = namedUser(ctx, bodyId(ctx, extra));
	ctx.state.lifecycle.plans.set(user.sub, body.planId as number);
	planSet(ctx, user.sub);
	return { data: [] };
};

export const deleteUser: Handler = (ctx) => {
	const user = namedUser(ctx, bodyId(ctx));
	removeEndUser(ctx.state, user);
	return { data: [] };
};

/** Removes an end user and everything of theirs; their tokens answer 401 from now on. */
export function removeEndUser(state: EmulatorState, user: EndUserRecord): void {
	for (const inst of recordsOf(state.installations, user.sub)) {
		for (const bundleId of inst.bundleIds) {
			for (const stepId of state.bundles.get(bundleId)?.stepIds ?? [])
				state.bundleData.delete(stepId);
			state.bundles.delete(bundleId);
		}
		state.installations.delete(inst.id);
	}
	for (const cred of recordsOf(state.credentials, user.sub)) state.credentials.delete(cred.id);
	state.endUsers.delete(endUserKey(user.partner, user.id));
	state.permanentTokens.delete(user.permanentToken);
	const store = state.lifecycle;
	store.plans.delete(user.sub);
	store.used.delete(user.sub);
	store.deleted.add(user.sub);
	state.billing.forget(user.sub);
}

/** Sets an end user's transactions used this month (control surface). */
export function setTransactionsUsed(
	state: EmulatorState,
	partner: string,
	id: string,
	used: number,
): void {
	if (!Number.isInteger(used) || used < 0) throw new Error('used must be an integer ≥ 0');
	const user = state.endUsers.get(endUserKey(partner, String(id)));
	if (!user) throw new Error(`unknown end user "${id}"`);
	state.lifecycle.used.set(user.sub, used);
}

/** Counts one transaction for the owner of a bundle, when the owner is an end user created through /wl. */
export function countTransaction(state: EmulatorState, bundleId: number): void {
	const bundle = state.bundles.get(bundleId);
	const sub = bundle && state.installations.get(bundle.installationId)?.userId;
	if (
		!sub ||
		!(endUserOfSub(state, sub) || [...state.endUsers.values()].some((u) => u.sub === sub))
	)
		return;
	const store = state.lifecycle;
	store.used.set(sub, (store.used.get(sub) ?? 0) + 1);
}
