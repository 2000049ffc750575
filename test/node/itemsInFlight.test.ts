/**
 * Request Options → Items in Flight, through n8n-core's engine: output order and pairedItem stay
 * those of the input, no more than the chosen number of requests is ever open at once, retries
 * (429 + Retry-After) still apply, and failures behave as without concurrency.
 *
 * In-flight counts come from a small counting proxy in front of the emulator: it sees each request
 * start and its response end, so the maximum is exact, not inferred from timings. The emulator's
 * delayMs faults hold every request open long enough for the items to overlap when they may.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

/** Forwards every request to the emulator and records how many were open at once. */
async function countingProxy(target: string) {
	/** `starts`: at each request's start, how many were open and how many the emulator had answered. */
	const stats = { open: 0, max: 0, total: 0, answered: 0, starts: [] as Array<[number, number]> };
	const server = http.createServer((req, res) => {
		stats.open++;
		stats.total++;
		stats.max = Math.max(stats.max, stats.open);
		stats.starts.push([stats.open, stats.answered]);
		let done = false;
		const finish = () => {
			if (!done) stats.open--;
			done = true;
		};
		res.on('close', finish);
		const upstream = http.request(
			new URL(req.url ?? '/', target),
			{ method: req.method, headers: req.headers },
			(answer) => {
				// Counted as answered when the emulator's answer ends: before the node can have read it.
				answer.on('end', () => stats.answered++);
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		upstream.on('error', () => res.destroy());
		req.pipe(upstream);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		stats,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const IDS = [5001, 5002];
const itemsOf = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ id: IDS[i % IDS.length], position: i }));
const get = (requestOptions: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', '={{ $json.id }}'),
	requestOptions,
});
/** Every GET of an installation answers only after `ms`. */
const slowGets = (ms: number, times: number) =>
	ctx.emu.faults.add({
		method: 'GET',
		path: /^\/solution\/installation\/\d+$/,
		delayMs: ms,
		times,
	});

describe('Items in Flight', () => {
	it.each([1, 4, 8])(
		'%i at once: output in input order, each item paired to its input',
		async (concurrency) => {
			// The first two answers are the slowest, so with concurrency they finish last.
			ctx.emu.faults.add({ method: 'GET', path: '/solution/installation/5001', delayMs: 150 });
			ctx.emu.faults.add({ method: 'GET', path: '/solution/installation/5002', delayMs: 100 });
			const items = itemsOf(20);
			const run = await runNode(ctx.emu, get({ concurrency }), { inputItems: items });
			expect(run.error).toBeUndefined();
			expect(run.json.map((json) => json.id)).toEqual(items.map((item) => item.id));
			expect(run.pairedItems).toEqual(items.map((_, i) => ({ item: i })));
			expect(run.calls).toHaveLength(20);
		},
	);

	/** 24 slow GETs through the counting proxy: long enough that a wave is open before the first answers, even on a loaded CPU. */
	async function slowRun(requestOptions: INodeParameters, { staggered = false } = {}) {
		const proxy = await countingProxy(ctx.emu.baseUrl);
		try {
			// Staggered: the first 8 answer one by one, 200 ms apart (the emulator applies its oldest
			// rule first), so the node meets each answer alone.
			if (staggered) for (let i = 0; i < 8; i++) slowGets(250 + 200 * i, 1);
			slowGets(250, 24);
			const items = itemsOf(24);
			const run = await runNode(ctx.emu, get(requestOptions), {
				inputItems: items,
				baseUrl: proxy.baseUrl,
			});
			expect(run.error).toBeUndefined();
			expect(run.json.map((json) => json.id)).toEqual(items.map((item) => item.id));
			expect(proxy.stats.total).toBe(24);
			return proxy.stats;
		} finally {
			await proxy.close();
		}
	}

	it.each([1, 3, 8])(
		'Items in Flight %i: never more requests open at once than the limit, and the limit reached when the service is slow',
		async (concurrency) => {
			expect((await slowRun({ concurrency })).max).toBe(concurrency);
		},
	);

	it('Items in Flight unset (default: Auto): 8 at first, then 7 more per answer, never past that', async () => {
		// Auto's slow start: each answer raises the limit by 7. When the answers of the first 8 reach
		// the node (all at once, or one by one) is the machine's timing, so the rule is checked at
		// every request's start (an answer counts once the emulator's ends, before the node reads it).
		for (const staggered of [false, true]) {
			const stats = await slowRun({}, { staggered });
			expect(stats.starts.slice(0, 8).map(([, answered]) => answered)).toEqual(Array(8).fill(0));
			for (const [open, answered] of stats.starts)
				expect(open).toBeLessThanOrEqual(8 + 7 * answered);
			expect(stats.starts[8][1]).toBeGreaterThanOrEqual(1);
			// After the first answer 7 wait and 8 more go: 15, whatever the timing after it.
			expect(stats.max).toBeGreaterThanOrEqual(15);
			// Answered one by one, those 8 go on the first answer alone (the 16th request).
			if (staggered) expect(stats.starts[15]).toEqual([15, 1]);
		}
	});

	it('one at a time sends the requests in item order', async () => {
		const items = itemsOf(10);
		const run = await runNode(ctx.emu, get({ concurrency: 1 }), { inputItems: items });
		expect(run.calls).toEqual(items.map((item) => `GET /solution/installation/${item.id}`));
	});

	it('a 429 with Retry-After is waited out and retried for that item only; the others go on meanwhile', async () => {
		ctx.emu.faults.add({
			method: 'GET',
			path: '/solution/installation/5002',
			status: 429,
			retryAfterSeconds: 1,
		});
		const items = itemsOf(8);
		const run = await runNode(ctx.emu, get({ concurrency: 4 }), { inputItems: items });
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.id)).toEqual(items.map((item) => item.id));
		expect(run.pairedItems).toEqual(items.map((_, i) => ({ item: i })));

		const log = ctx.emu.requests;
		expect(log).toHaveLength(9); // 8 items + 1 retry
		const limited = log.findIndex((entry) => entry.status === 429);
		expect(limited).toBeGreaterThanOrEqual(0);
		// The retry is the last request: the other seven items did not wait for it.
		const retry = log[log.length - 1];
		expect(retry).toMatchObject({
			method: 'GET',
			path: '/solution/installation/5002',
			status: 200,
		});
		expect(log.slice(0, -1).filter((entry) => entry.status === 200)).toHaveLength(7);
		// Retry-After: 1 was honoured (the clock of the log has millisecond steps).
		expect(Date.parse(retry.at) - Date.parse(log[limited].at)).toBeGreaterThanOrEqual(950);
	});

	it('continueOnFail: failed items keep their place and pairing among the others', async () => {
		const items = [
			{ id: 5001 },
			{ id: 999 },
			{ id: 5002 },
			{ id: 4242 },
			{ id: 5001 },
			{ id: 5002 },
		];
		const run = await runNode(ctx.emu, get({ concurrency: 3 }), {
			inputItems: items,
			continueOnFail: true,
		});
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.id ?? `error ${String(json.httpCode)}`)).toEqual([
			5001,
			'error 404',
			5002,
			'error 404',
			5001,
			5002,
		]);
		expect(run.pairedItems).toEqual(items.map((_, i) => ({ item: i })));
	});

	it('without continueOnFail the first failure stops the run: no new items are started', async () => {
		slowGets(30, 40);
		const items = [{ id: 999 }, ...itemsOf(39)];
		const run = await runNode(ctx.emu, get({ concurrency: 4 }), { inputItems: items });
		expect(run.error?.httpCode).toBe('404');
		expect(run.json).toEqual([]);
		// Item 0 fails at once; only the items already in flight (or started alongside) were sent.
		expect(run.calls.length).toBeLessThanOrEqual(8);
	});

	// Bundle Data → Update within Items in Flight: bundleData/update.itemsInFlight.test.ts.

	it('a number outside 0–64 is refused before any request', async () => {
		const run = await runNode(ctx.emu, get({ concurrency: 65 }), { inputItems: itemsOf(2) });
		expect(run.error?.message).toMatch(/Items in Flight must be a number from 0 to 64/);
		expect(run.calls).toEqual([]);
	});
});
