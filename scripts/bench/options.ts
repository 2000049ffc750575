/**
 * The bench's command line and constants: the options (see scripts/bench.ts's header), the
 * installations read, the round trips and the in-flight settings measured, and small number helpers.
 */
import path from 'path';

export const ROOT = path.join(__dirname, '..', '..');
/** The bench's own file: the measuring and memory children run it again with a flag. */
export const ENTRY = path.join(__dirname, '..', 'bench.ts');
export const NODE_NAME = 'Albato';
export const IDS = [5001, 5002]; // user-1's installations in the fixtures
export const RTTS = [50, 150] as const;
export const IN_FLIGHT = [1, 8, 32] as const;

export function arg(name: string): string | undefined {
	const i = process.argv.indexOf(name);
	return i === -1 ? undefined : process.argv[i + 1];
}
export const num = (name: string, fallback: number) => {
	const value = Number(arg(name) ?? fallback);
	if (!Number.isFinite(value) || value < 0)
		throw new Error(`${name} must be a number, got ${arg(name)}`);
	return Math.floor(value);
};
export const DIST = path.resolve(arg('--dist') ?? path.join(ROOT, 'dist'));
export const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

export function round(value: number, digits = 2): number {
	return Number(value.toFixed(digits));
}
