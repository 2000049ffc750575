/**
 * A rate-limited service, through n8n-core's engine: the emulator serves at most 2 requests at once
 * and answers 429 + Retry-After above that. At its default settings (Items in Flight Auto, default
 * retries) the node slows down to what the service takes, and no item fails.
 *
 * Retry-After: 0 makes the difference between adapting and not visible in the 429 count: a client
 * that kept 8 requests in flight would be refused about 6 times per service time, all run long.
 */
import type { INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

const IDS = [5001, 5002];
const itemsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ id: IDS[i % IDS.length] }));
const get = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', '={{ $json.id }}'),
	...extra,
});

describe('rate-limited service (429 + Retry-After above 2 requests at once)', () => {
	it('at the defaults: every item succeeds, in order and paired, and the node backs off to what the service takes', async () => {
		ctx.emu.setRateLimit({ maxConcurrent: 2, retryAfterSeconds: 0, serviceMs: 100 });
		const items = itemsOf(40);
		const run = await runNode(ctx.emu, get(), { inputItems: items });
		expect(run.error).toBeUndefined();
		expect(run.json.map((json) => json.id)).toEqual(items.map((item) => item.id));
		expect(run.pairedItems).toEqual(items.map((_, i) => ({ item: i })));

		const stats = ctx.emu.rateLimit()!;
		expect(stats.admitted).toBe(40);
		expect(stats.rejected).toBeGreaterThan(0); // it really was rate limited
		// Adapting: fewer refusals than items (about 25 here; 8 in flight without adapting collect
		// about 80).
		expect(stats.rejected).toBeLessThan(40);
		expect(run.calls).toHaveLength(40 + stats.rejected);
	});

	it('Retry-After is honoured, and 429s do not use up Max Retries (the Retry Time Budget bounds them)', async () => {
		ctx.emu.setRateLimit({ maxConcurrent: 1, retryAfterSeconds: 1, serviceMs: 50 });
		const run = await runNode(ctx.emu, get({ requestOptions: { maxRetries: 0, concurrency: 8 } }), {
			inputItems: itemsOf(6),
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(6);
		// All 6 items go out at once (Items in Flight 8): one is served, five are refused. Nothing
		// else is sent until Retry-After has passed.
		const log = ctx.emu.requests;
		const start = Date.parse(log[0].at);
		const firstWave = log.filter((entry) => Date.parse(entry.at) - start < 950);
		expect(firstWave.map((entry) => entry.status).sort()).toEqual([200, 429, 429, 429, 429, 429]);
		expect(log.length).toBeGreaterThan(6);
	});

	it('429 with Retry-After: 0 on every call: the waits still grow, and the Retry Time Budget ends it', async () => {
		ctx.emu.faults.add({
			method: 'GET',
			path: '/solution/installation/5001',
			status: 429,
			retryAfterSeconds: 0,
			times: 1000,
		});
		const run = await runNode(ctx.emu, get({ requestOptions: { retryBudget: 1 } }), {
			inputItems: itemsOf(1),
		});
		expect(run.error?.httpCode).toBe('429');
		expect(run.calls.length).toBeGreaterThan(1);
		expect(run.calls.length).toBeLessThan(30);
	});

	it('a 429 that would need more waiting than the Retry Time Budget still fails, with the hint', async () => {
		ctx.emu.setRateLimit({ maxConcurrent: 1, retryAfterSeconds: 5, serviceMs: 100 });
		const run = await runNode(ctx.emu, get({ requestOptions: { retryBudget: 1 } }), {
			inputItems: itemsOf(3),
		});
		expect(run.error?.httpCode).toBe('429');
		expect(run.error?.description).toMatch(/rate limiting/);
	});
});
