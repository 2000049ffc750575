/**
 * Fault rules: match method + path (and, with `customers`, a share of the end users:
 * customerFaults.ts), applied a given number of times, oldest rule first.
 */
import {
	customerChoiceFromJson,
	customerMatches,
	type CustomerChoice,
	type CustomerResolver,
} from './customerFaults';
import type { FaultRule } from './types';

/** A rule that may apply only to some customers' calls. */
type Rule = FaultRule & { customers?: CustomerChoice };

interface ActiveRule {
	rule: Rule;
	remaining: number;
}

export class FaultStore {
	private rules: ActiveRule[] = [];

	/** `customerOf`: whom a call is for, for the rules with `customers` (none match without it). */
	constructor(private readonly customerOf?: CustomerResolver) {}

	add(rule: FaultRule): void {
		if (typeof rule.path !== 'string' && !(rule.path instanceof RegExp))
			throw new Error('fault rule needs a path (string or RegExp)');
		this.rules.push({ rule: { ...rule }, remaining: rule.times ?? 1 });
	}

	clear(): void {
		this.rules = [];
	}

	/** Rules still to apply, with `times` showing what is left. */
	list(): FaultRule[] {
		return this.rules.map(({ rule, remaining }) => ({ ...rule, times: remaining }));
	}

	/** Consumes one use of the first rule matching this call (`authorization`: its header). */
	take(method: string, path: string, rawQuery = '', authorization?: string): FaultRule | undefined {
		const i = this.rules.findIndex(({ rule }) => {
			if (rule.method && rule.method.toUpperCase() !== method) return false;
			if (
				rule.query !== undefined &&
				!(typeof rule.query === 'string' ? rule.query === rawQuery : rule.query.test(rawQuery))
			)
				return false;
			if (!(typeof rule.path === 'string' ? rule.path === path : rule.path.test(path)))
				return false;
			return (
				!rule.customers || customerMatches(rule.customers, this.customerOf?.(path, authorization))
			);
		});
		if (i === -1) return undefined;
		const active = this.rules[i];
		if (--active.remaining <= 0) this.rules.splice(i, 1);
		return active.rule;
	}
}

/** Short label for the request log, e.g. "status:503+delay:200". */
export function describeFault(rule: FaultRule): string {
	const parts: string[] = [];
	if (rule.delayMs) parts.push(`delay:${rule.delayMs}`);
	if (rule.reset) parts.push(`reset:${rule.reset}`);
	else if (rule.status && !rule.malformedJson && !rule.emptyBody)
		parts.push(`status:${rule.status}`);
	if (rule.successFalse) parts.push('successFalse');
	if (rule.echoAuthorization) parts.push('echoAuthorization');
	if (rule.malformedJson) parts.push('malformedJson');
	if (rule.emptyBody) parts.push('emptyBody');
	if (rule.answerAsGet) parts.push('answerAsGet');
	const { customers } = rule as Rule;
	if (customers)
		parts.push(`customers:${customers.share * 100}%${customers.seed ? `/${customers.seed}` : ''}`);
	return parts.join('+') || 'none';
}

/** Fault rule as JSON (control surface): `path` is a RegExp source when `regex` is true. */
export function faultFromJson(body: unknown): FaultRule {
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new Error('fault rule must be a JSON object');
	const raw = body as Record<string, unknown> & { regex?: boolean };
	if (typeof raw.path !== 'string') throw new Error('fault rule needs a string "path"');
	const { regex, ...rule } = raw;
	const query =
		typeof raw.query === 'string' && regex
			? new RegExp(raw.query)
			: (raw.query as string | undefined);
	return {
		...(rule as unknown as FaultRule),
		path: regex ? new RegExp(raw.path) : raw.path,
		...(query !== undefined ? { query } : {}),
		...(raw.customers !== undefined ? { customers: customerChoiceFromJson(raw.customers) } : {}),
	};
}

/** JSON form of a rule (RegExp → its source plus regex: true). */
export function faultToJson(rule: FaultRule): Record<string, unknown> {
	const query = rule.query instanceof RegExp ? { query: rule.query.source } : {};
	return rule.path instanceof RegExp || rule.query instanceof RegExp
		? {
				...rule,
				path: rule.path instanceof RegExp ? rule.path.source : rule.path,
				...query,
				regex: true,
			}
		: { ...rule };
}
