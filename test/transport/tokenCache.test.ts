/**
 * The in-memory cache of minted end-user tokens: refresh margin, bounds, tokens without an
 * expiry, shared mints.
 */
import {
	MAX_BYTES,
	SWEEP_EVERY,
	UNDATED_KEEP,
	cachedExpiry,
	cachedToken,
	dropCached,
	dropEndUser,
	forItem,
	forTests,
	sharedMint,
	storeToken,
} from '../../nodes/shared/transport/tokenCache';

const { clearEndUserTokenCache } = forTests;

const T0 = 1_700_000_000_000;
let now = T0;
beforeEach(() => {
	clearEndUserTokenCache();
	now = T0;
	jest.spyOn(Date, 'now').mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

describe('cached tokens with an expiry', () => {
	it('are used until a refresh margin before expiry (a minute, or half a short life)', () => {
		storeToken('long', 'L', T0 + 3_600_000);
		storeToken('short', 'S', T0 + 100_000);
		now = T0 + 3_540_000 - 1;
		expect(cachedToken('long')).toBe('L');
		now = T0 + 3_540_000;
		expect(cachedToken('long')).toBeUndefined();
		now = T0 + 50_000 - 1;
		expect(cachedToken('short')).toBe('S');
		now = T0 + 50_000;
		expect(cachedToken('short')).toBeUndefined();
		expect(cachedExpiry('short')).toBe(T0 + 100_000);
		expect(cachedExpiry('none')).toBeUndefined();
		expect(cachedToken('none')).toBeUndefined();
	});

	it('a refused token is dropped, but not a newer one stored meanwhile', () => {
		storeToken('k', 'new', T0 + 3_600_000);
		dropCached('k', 'old');
		expect(cachedToken('k')).toBe('new');
		dropCached('k', 'new');
		expect(cachedToken('k')).toBeUndefined();
	});

	it('are all kept while live, however many customers: no count bounds the cache', () => {
		// A fleet of 100,000 over two workers: a count of 50,000 evicted it between jobs.
		const live = T0 + 3_600_000;
		for (let i = 0; i < 120_000; i++) storeToken(`k${i}`, `t${i}`, live);
		expect(cachedToken('k0')).toBe('t0');
		expect(cachedToken('k119999')).toBe('t119999');
	});

	it('expired ones are swept as tokens are stored, at most once every SWEEP_EVERY', () => {
		storeToken('old', 'O', T0);
		storeToken('new', 'N', T0 + 3_600_000);
		expect(cachedExpiry('old')).toBe(T0);
		now = T0 + SWEEP_EVERY - 1;
		storeToken('newer', 'N2', T0 + 3_600_000);
		expect(cachedExpiry('old')).toBe(T0);
		now = T0 + SWEEP_EVERY;
		storeToken('newest', 'N3', T0 + 3_600_000);
		expect(cachedExpiry('old')).toBeUndefined();
		expect(cachedToken('new')).toBe('N');
	});

	const big = 'x'.repeat(1024 * 1024); // one string, counted per entry as a token's text
	/** How many `big` tokens fit in MAX_BYTES. */
	const FITS = Math.floor(MAX_BYTES / (big.length + 1024));
	/** Keys of one length (a key's length counts in its room): k000, k001, … */
	const k = (i: number) => `k${String(i).padStart(3, '0')}`;
	const live = T0 + 3_600_000;

	it('past MAX_BYTES the oldest go first; a refreshed token counts as new', () => {
		for (let i = 0; i < FITS; i++) storeToken(k(i), big, live);
		storeToken(k(1), big, live);
		for (let i = 0; i < 3; i++) storeToken(k(900 + i), big, live);
		expect([0, 2, 3].map((i) => cachedToken(k(i)))).toEqual([undefined, undefined, undefined]);
		expect([1, 4, 902].map((i) => cachedToken(k(i)))).toEqual([big, big, big]);
	});

	it('a dropped, forgotten or swept token frees its room: nothing else is evicted for it', () => {
		// The newest three expire first, so only a sweep (not eviction of the oldest) takes them.
		for (let i = 0; i < FITS; i++) storeToken(k(i), big, i >= FITS - 3 ? T0 + 1 : live);
		const full = forTests.bytes();
		dropCached(k(3), big);
		dropEndUser(k(4));
		storeToken(k(900), big, live);
		storeToken(k(901), big, live);
		expect(forTests.bytes()).toBe(full);
		now = T0 + SWEEP_EVERY;
		for (let i = 902; i < 905; i++) storeToken(k(i), big, live);
		expect([0, 5, 904].map((i) => cachedToken(k(i)))).toEqual([big, big, big]);
		expect(cachedExpiry(k(FITS - 1))).toBeUndefined();
		expect(forTests.bytes()).toBe(full);
	});
});

describe('tokens without an expiry (permanent tokens)', () => {
	it('are kept for UNDATED_KEEP, with no expiry said', () => {
		storeToken('perm', 'P', undefined);
		expect(cachedExpiry('perm')).toBeUndefined();
		now = T0 + UNDATED_KEEP - 60_001;
		expect(cachedToken('perm')).toBe('P');
		now = T0 + UNDATED_KEEP - 60_000;
		expect(cachedToken('perm')).toBeUndefined();
	});
});

describe('sharedMint', () => {
	it('one token call for every concurrent caller, a new one after it settled', async () => {
		let calls = 0;
		const mint = async () => ({ token: `T${++calls}` });
		const [a, b] = await Promise.all([sharedMint('k', mint), sharedMint('k', mint)]);
		expect([a.token, b.token, calls]).toEqual(['T1', 'T1', 1]);
		expect((await sharedMint('k', mint)).token).toBe('T2');
		expect((await sharedMint('other', mint)).token).toBe('T3');
	});

	it('callers that waited on a failed call share one more call; the first caller gets the failure', async () => {
		let calls = 0;
		const mint = async () => {
			calls++;
			if (calls === 1) throw new Error('service down');
			return { token: `T${calls}` };
		};
		const results = await Promise.allSettled([
			sharedMint('k', mint),
			sharedMint('k', mint),
			sharedMint('k', mint),
		]);
		expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
		expect(
			results.slice(1).map((r) => (r as PromiseFulfilledResult<{ token: string }>).value.token),
		).toEqual(['T2', 'T2']);
		expect(calls).toBe(2);
	});
});

describe('forItem', () => {
	class ItemError extends Error {
		constructor(public context: Record<string, unknown>) {
			super('token call failed');
		}
	}

	it('gives each waiting item the shared failure with its own item index', () => {
		const error = new ItemError({ itemIndex: 0, call: 'mint' });
		const copy = forItem(error, 3) as ItemError;
		expect(copy).not.toBe(error);
		expect(copy).toBeInstanceOf(ItemError);
		expect(copy.message).toBe('token call failed');
		expect(copy.context).toEqual({ itemIndex: 3, call: 'mint' });
		expect(error.context.itemIndex).toBe(0);
	});

	it('leaves the error as it is when it already names the item, has no context, or is no Error', () => {
		const error = new ItemError({ itemIndex: 3 });
		expect(forItem(error, 3)).toBe(error);
		const plain = new Error('x');
		expect(forItem(plain, 3)).toBe(plain);
		const notError = { context: { itemIndex: 0 } };
		expect(forItem(notError, 3)).toBe(notError);
		expect(forItem(undefined, 3)).toBeUndefined();
	});
});

describe('clearEndUserTokenCache ("a new n8n process")', () => {
	it('forgets cached tokens and token calls under way', async () => {
		storeToken('k', 'T', T0 + 3_600_000);
		let release: (token: { token: string }) => void = () => {};
		const first = sharedMint('m', () => new Promise((resolve) => (release = resolve)));
		clearEndUserTokenCache();
		expect(cachedToken('k')).toBeUndefined();
		expect((await sharedMint('m', async () => ({ token: 'fresh' }))).token).toBe('fresh');
		release({ token: 'old' });
		expect((await first).token).toBe('old');
	});

	it('a token call from before the clear does not end the sharing of the one after it', async () => {
		let releaseOld: (token: { token: string }) => void = () => {};
		let releaseNew: (token: { token: string }) => void = () => {};
		let calls = 0;
		const old = sharedMint('m', () => new Promise((resolve) => (releaseOld = resolve)));
		clearEndUserTokenCache();
		const fresh = sharedMint('m', () => {
			calls++;
			return new Promise((resolve) => (releaseNew = resolve));
		});
		releaseOld({ token: 'old' });
		await old;
		const joined = sharedMint('m', async () => {
			calls++;
			return { token: 'third' };
		});
		releaseNew({ token: 'new' });
		expect([(await fresh).token, (await joined).token, calls]).toEqual(['new', 'new', 1]);
	});
});
