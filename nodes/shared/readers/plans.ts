/**
 * Billing plans as list-plans answers them (Albato's page: `data: [{id, monthlyTrx}]`): a list, a
 * wrapped list or a map keyed by id; ids and counts as numbers or numeric strings. Pure: imports
 * only the shape readers.
 */
import { idOf, listOrMap } from './shapes';

interface Plan {
	id: number | string;
	/** Transactions a month; undefined when the service did not say. */
	monthlyTrx: number | undefined;
}

/** A count the service sent as a number or a numeric string; undefined otherwise. */
export function countOf(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

/** Every plan with an id, in the service's order. */
export function plansOf(data: unknown): Plan[] {
	return listOrMap(data).flatMap((record) => {
		const id = idOf(record.id);
		return id === undefined ? [] : [{ id, monthlyTrx: countOf(record.monthlyTrx) }];
	});
}

/** The plan with this id (5 and "5" are the same plan). */
export function planById(plans: Plan[], id: unknown): Plan | undefined {
	const wanted = idOf(id);
	return wanted === undefined
		? undefined
		: plans.find((plan) => String(plan.id) === String(wanted));
}

/**
 * The share of a plan's monthly transactions no longer left, from `trxLimit` (transactions left,
 * Albato: "User transaction limit left") and the plan's `monthlyTrx`: 1 − left / monthly, rounded
 * to 4 places. Undefined when it cannot be told honestly: either number unknown, a plan of 0, a
 * negative count, or more left than the plan gives (extra transactions were added: usage is then
 * unknown).
 */
export function usedShareOf(left: unknown, monthlyTrx: number | undefined): number | undefined {
	const remaining = countOf(left);
	if (remaining === undefined || monthlyTrx === undefined) return undefined;
	if (monthlyTrx <= 0 || remaining < 0 || remaining > monthlyTrx) return undefined;
	return Math.round((1 - remaining / monthlyTrx) * 10000) / 10000;
}
