/**
 * In-process bookkeeping for safe installs (Installation → Create and Ensure), keyed by whom the
 * client acts for (base URL and end user, never the token itself):
 * - one install at a time per end user and title, across items in flight and across executions in
 *   this process, so two installs of the same title never overlap their "what exists" reads;
 * - the installations this process has reported as created ("claimed"), so a recovery after a lost
 *   answer never hands out an installation another item already reported, and Refuse Duplicate
 *   Title still sees them while the service's list lags behind.
 * It is safe to lose (a restart only forgets what the service's list soon shows), and it cannot
 * see other worker processes: docs/reliability.md says what that leaves open.
 */

/** How long a claim is remembered: far longer than any list lag worth waiting for. */
const CLAIM_TTL_MS = 60 * 60 * 1000;
/** Bound on remembered claims per process (oldest are forgotten first). */
const MAX_CLAIMS = 10_000;

interface Claim {
	principal: string;
	title: string;
	at: number;
}

const queues = new Map<string, Promise<void>>();
const claims = new Map<string, Claim>();

const keyOf = (principal: string, title: string) => `${principal}\u0000${title}`;
const claimKey = (principal: string, id: unknown) => `${principal}\u0000${String(id)}`;

/**
 * Runs `task` when no other install of the same title for the same end user runs in this process.
 */
export async function oneInstallAtATime<T>(
	principal: string,
	title: string,
	task: () => Promise<T>,
): Promise<T> {
	const key = keyOf(principal, title);
	const previous = queues.get(key) ?? Promise.resolve();
	let release!: () => void;
	const done = new Promise<void>((resolve) => (release = resolve));
	const tail = previous.then(() => done);
	queues.set(key, tail);
	await previous;
	try {
		return await task();
	} finally {
		release();
		if (queues.get(key) === tail) queues.delete(key);
	}
}

function forgetOld(now: number): void {
	for (const [key, claim] of claims) {
		if (now - claim.at <= CLAIM_TTL_MS && claims.size <= MAX_CLAIMS) break;
		claims.delete(key);
	}
}

/** Records that an item reported this installation as the one it created. */
export function claim(principal: string, id: unknown, title: string): void {
	const now = Date.now();
	forgetOld(now);
	claims.delete(claimKey(principal, id));
	claims.set(claimKey(principal, id), { principal, title, at: now });
}

/** Forgets a claim whose installation is gone (its detail answered 404). */
export function forget(principal: string, id: unknown): void {
	claims.delete(claimKey(principal, id));
}

export function isClaimed(principal: string, id: unknown): boolean {
	return claims.has(claimKey(principal, id));
}

/** Installations this process created with this title for this end user (newest last). */
export function claimedWithTitle(principal: string, title: string): string[] {
	forgetOld(Date.now());
	const ids: string[] = [];
	const prefix = `${principal}\u0000`;
	for (const [key, entry] of claims)
		if (entry.principal === principal && entry.title === title) ids.push(key.slice(prefix.length));
	return ids;
}

/**
 * How long an install whose outcome stayed unknown keeps Refuse Duplicate Title refusing its title.
 */
export const UNKNOWN_TTL_MS = 15 * 60 * 1000;

/** Per end user and title: when an install of it ended "outcome unknown", by solution. */
const unknowns = new Map<string, Map<number, number>>();

/** Records that installing this title ended "outcome unknown": it may still appear in the list. */
export function markUnknown(principal: string, title: string, solutionId: number): void {
	const now = Date.now();
	for (const [key, bySolution] of unknowns) {
		for (const [solution, at] of bySolution)
			if (now - at > UNKNOWN_TTL_MS) bySolution.delete(solution);
		if (bySolution.size === 0 || unknowns.size > MAX_CLAIMS) unknowns.delete(key);
	}
	const key = keyOf(principal, title);
	unknowns.set(key, (unknowns.get(key) ?? new Map<number, number>()).set(solutionId, now));
}

/**
 * When an install of this title ended "outcome unknown" within UNKNOWN_TTL_MS (of this solution,
 * or of any when `solutionId` is undefined: a title that names one installation), else undefined.
 */
export function unknownSince(
	principal: string,
	title: string,
	solutionId?: number,
): number | undefined {
	const bySolution = unknowns.get(keyOf(principal, title));
	const times =
		solutionId === undefined
			? [...(bySolution?.values() ?? [])]
			: [bySolution?.get(solutionId)].filter((at): at is number => at !== undefined);
	const recent = times.filter((at) => Date.now() - at <= UNKNOWN_TTL_MS);
	return recent.length ? Math.max(...recent) : undefined;
}

/**
 * Forgets every claim. The service never reuses an installation id, but a reset emulator does:
 * tests call this with each reset.
 */
function forgetClaims(): void {
	claims.clear();
	unknowns.clear();
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { forgetClaims };
