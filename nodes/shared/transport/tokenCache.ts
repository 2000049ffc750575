/**
 * The in-memory cache of minted end-user tokens (see partnerSession.ts for who keys it and why).
 * Module level on purpose: shared by every execution in this n8n process, never persisted.
 * Losing it costs one token call per user, nothing else.
 */
import { type MintedToken, refreshMargin } from '../readers/mintedToken';

interface CacheEntry {
	token: string;
	mintedAt: number;
	expiresAt: number;
	/** The service said no expiry (a permanent token): `expiresAt` is only how long it is kept. */
	undated: boolean;
}

/**
 * How long a token the service gave no expiry (a permanent token) is kept by the process: as long
 * as a session token usually lives, so a fleet of permanent tokens costs one token call per
 * customer per worker too. One that was revoked costs a 401 and one fresh token.
 */
export const UNDATED_KEEP = 60 * 60_000;

const cache = new Map<string, CacheEntry>();
const minting = new Map<string, Promise<MintedToken>>();

/**
 * What bounds the cache: time and memory, not a number of customers. A token stays until it
 * expires, so a worker keeps one for each customer it served within a token's life, from one job
 * to the next (a count of 50,000 evicted a fleet of 100,000 spread over two workers between jobs:
 * 0.67 token calls per customer in the sweep after the fleet change, against 0.40 at 10,000).
 * Past MAX_BYTES, the oldest go first: about 238,000 customers with 153-character session
 * tokens, 520 bytes of heap each (`npm run bench:token-cache`).
 */
export const MAX_BYTES = 128 * 1024 * 1024;
/** A cached entry's memory besides its key and token text (Map slot, object, strings' headers). */
const ENTRY_BYTES = 360;
/** Expired entries are swept at most this often, as tokens are stored. */
export const SWEEP_EVERY = 60_000;
let bytes = 0;
let nextSweep = 0;

const sizeOf = (key: string, entry: CacheEntry) => ENTRY_BYTES + key.length + entry.token.length;

function remove(key: string): void {
	const entry = cache.get(key);
	if (!entry) return;
	bytes -= sizeOf(key, entry);
	cache.delete(key);
}

/** Empties the token cache (tests: "a new n8n process"). */
function clearEndUserTokenCache(): void {
	cache.clear();
	minting.clear();
	bytes = 0;
	nextSweep = 0;
}

/** The cached token under `key` while it is not due for a refresh. */
export function cachedToken(key: string): string | undefined {
	const cached = cache.get(key);
	if (cached && Date.now() < cached.expiresAt - refreshMargin(cached.mintedAt, cached.expiresAt))
		return cached.token;
	return undefined;
}

/** When the cached token under `key` expires (epoch ms), if known. */
export function cachedExpiry(key: string): number | undefined {
	const cached = cache.get(key);
	return cached?.undated ? undefined : cached?.expiresAt;
}

/** Drops the token under `key` if it is `stale` (the one the service just refused). */
export function dropCached(key: string, stale: string): void {
	if (cache.get(key)?.token === stale) remove(key);
}

/**
 * Forgets the token of one user (`key`: credential key + user), and a token call under way: after
 * the user is deleted it may not be sent again.
 */
export function dropEndUser(key: string): void {
	remove(key);
	minting.delete(key);
}

/**
 * Keeps a token until `expiresAt` (undefined: a token without expiry, for UNDATED_KEEP). Sweeps
 * expired entries now and then, and drops the oldest past MAX_BYTES.
 */
export function storeToken(key: string, token: string, expiresAt: number | undefined): void {
	const now = Date.now();
	const undated = expiresAt === undefined;
	const entry = { token, mintedAt: now, expiresAt: expiresAt ?? now + UNDATED_KEEP, undated };
	remove(key);
	// A clock set back by more than SWEEP_EVERY would otherwise hold the sweeps off that long.
	if (now >= nextSweep || nextSweep - now > SWEEP_EVERY) {
		nextSweep = now + SWEEP_EVERY;
		for (const [old, kept] of cache) if (kept.expiresAt <= now) remove(old);
	}
	const size = sizeOf(key, entry);
	while (cache.size > 0 && bytes + size > MAX_BYTES) remove(cache.keys().next().value as string);
	cache.set(key, entry);
	bytes += size;
}

/**
 * One token call for every concurrent caller. Callers that waited on a call that failed join (or
 * start) one more, also shared: a failing service gets two calls, not one per waiting item.
 */
export async function sharedMint(
	key: string,
	mint: () => Promise<MintedToken>,
): Promise<MintedToken> {
	const pending = minting.get(key);
	if (!pending) return await start(key, mint);
	try {
		return await pending;
	} catch {
		return await start(key, mint);
	}
}

function start(key: string, mint: () => Promise<MintedToken>): Promise<MintedToken> {
	const running = minting.get(key);
	if (running) return running;
	const pending: Promise<MintedToken> = mint().finally(() => {
		if (minting.get(key) === pending) minting.delete(key);
	});
	minting.set(key, pending);
	return pending;
}

/**
 * A failed token call is shared by every caller that waited on it (possibly in another execution):
 * each gets it with its own item index, so no error names another item.
 */
export function forItem(error: unknown, itemIndex: number | undefined): unknown {
	const context = (error as { context?: Record<string, unknown> } | undefined)?.context;
	if (!(error instanceof Error) || !context || context.itemIndex === itemIndex) return error;
	const copy = Object.create(
		Object.getPrototypeOf(error) as object,
		Object.getOwnPropertyDescriptors(error),
	) as Error;
	(copy as unknown as { context: Record<string, unknown> }).context = { ...context, itemIndex };
	return copy;
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { clearEndUserTokenCache, bytes: () => bytes };
