/**
 * A limit typed as a count ("3", 3) or a percentage ("2%", "2.5 %"): Stop After Failures and
 * Running Low Below. Pure: each caller says what its limit may be and words its own error.
 */
export type CountOrPercent = { count: number } | { percent: number };

/**
 * The limit, or undefined when the value is neither a whole count nor a percentage up to 100.
 * Zero is a limit only where `zero` allows it ("stop at the first failure"); a limit below which
 * nothing can fall is not.
 */
export function countOrPercentOf(
	value: unknown,
	{ zero }: { zero: boolean },
): CountOrPercent | undefined {
	const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
	const lowest = zero ? 0 : Number.MIN_VALUE;
	const percent = /^(\d+(?:\.\d+)?)\s*%$/.exec(text);
	if (percent) {
		const share = Number(percent[1]);
		return share >= lowest && share <= 100 ? { percent: share } : undefined;
	}
	if (!/^\d+$/.test(text)) return undefined;
	const count = Number(text);
	return count >= lowest ? { count } : undefined;
}

/** As the user would write it: "3", "2%". */
export function describeCountOrPercent(limit: CountOrPercent): string {
	return 'count' in limit ? String(limit.count) : `${limit.percent}%`;
}
