/**
 * The transport's retries of safe calls through the node: Retry-After, resets, Max Retries, no
 * retry of a 4xx, the time budget.
 */
import { byId, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

const FAST = { requestOptions: { maxRetries: 3, retryBudget: 10 } };
const start = (id: number, extra = {}) => ({
	resource: 'installation',
	operation: 'start',
	installationId: byId('id', id),
	...FAST,
	...extra,
});

describe('retries of safe calls', () => {
	it('429 with Retry-After: waits and retries PLAY', async () => {
		ctx.emu.faults.add({
			method: 'PLAY',
			path: '/solution/installation/5002',
			status: 429,
			retryAfterSeconds: 0,
			times: 2,
		});
		const run = await runNode(ctx.emu, start(5002));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(Array(3).fill('PLAY /solution/installation/5002'));
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(1);
	});

	it.each([502, 503, 504])('%i: retried with backoff, then succeeds', async (status) => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', status });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
			...FAST,
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['GET /solution/apps', 'GET /solution/apps']);
	});

	it('a reset connection before the answer is retried for PAUSE', async () => {
		ctx.emu.faults.add({ method: 'PAUSE', path: '/solution/installation/5001', reset: 'before' });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'pause',
			installationId: byId('id', 5001),
			...FAST,
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(2);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(0);
	});

	it('gives up after Max Retries and says how often it tried', async () => {
		ctx.emu.faults.add({
			method: 'PLAY',
			path: '/solution/installation/5002',
			status: 503,
			times: 10,
		});
		const run = await runNode(
			ctx.emu,
			start(5002, { requestOptions: { maxRetries: 2, retryBudget: 10 } }),
		);
		expect(run.calls).toHaveLength(3);
		expect(run.error?.httpCode).toBe('503');
		expect(run.error?.description).toMatch(/after 2 retries/);
	});

	it('never retries a 4xx', async () => {
		const run = await runNode(ctx.emu, start(999));
		expect(run.calls).toEqual(['PLAY /solution/installation/999']);
		expect(run.error?.httpCode).toBe('404');
	});

	it('stops retrying when the time budget would be exceeded', async () => {
		ctx.emu.faults.add({
			method: 'PLAY',
			path: '/solution/installation/5002',
			status: 429,
			retryAfterSeconds: 5,
			times: 3,
		});
		const run = await runNode(
			ctx.emu,
			start(5002, { requestOptions: { maxRetries: 5, retryBudget: 1 } }),
		);
		expect(run.calls).toHaveLength(1);
		expect(run.error?.httpCode).toBe('429');
	});
});
