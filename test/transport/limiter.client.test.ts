/**
 * The client feeds its in-flight limiter every answer: answers without 429 open the window (Auto's
 * slow start grows past its first 8), so a service that is not rate limited gets the run at speed.
 * Executions running at once in one process share Auto's ceiling (AUTO_CAP requests in flight
 * together), and every request gives its slot back, whether it succeeded, failed, timed out or was
 * aborted by a cancelled execution. The emulator counts the most requests it served at once.
 */
import { forTests as clientForTests } from '../../nodes/shared/transport/client';
import { forTests } from '../../nodes/shared/transport/limiter';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../harness';
import { byId, NODE_NAME, runNode, useEmulator } from '../support/setup';

const { AUTO_CAP, SLOW_START } = forTests;
const { autoCeiling } = clientForTests;

const ctx = useEmulator();

const getEach = {
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', '={{ $json.id }}'),
};
const items = (n: number) => Array.from({ length: n }, () => ({ id: 5001 }));

/** Resolves once `holds()` is true (checked every 10 ms). */
async function when(holds: () => boolean) {
	while (!holds()) await new Promise((r) => setTimeout(r, 10));
}
/** Resolves once the emulator serves at least `n` requests at once. */
const whenServing = (n: number) => when(() => (ctx.emu.rateLimit()?.active ?? 0) >= n);

/** Runs Installation → Get for `n` items in n8n-core, cancelled when `cancel` resolves. */
const runCancelled = (n: number, cancel: Promise<unknown>) =>
	runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters: { ...getEach, requestOptions: { maxRetries: 0 } },
			},
		],
		inputItems: items(n),
		credentials: {
			albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() },
		},
		cancel,
	});

afterEach(() => {
	// Whatever a test did, no slot of the process's ceiling is left taken or waited for.
	expect([autoCeiling.active, autoCeiling.queued]).toEqual([0, 0]);
});

it('Items in Flight Auto, no 429: more than the first window in flight once answers come back', async () => {
	ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 40 });
	const run = await runNode(ctx.emu, getEach, { inputItems: items(40) });
	expect(run.error).toBeUndefined();
	expect(run.calls).toHaveLength(40);
	const stats = ctx.emu.rateLimit()!;
	expect(stats.rejected).toBe(0);
	expect(stats.peak).toBeGreaterThan(SLOW_START);
});

describe("the process's ceiling for Auto", () => {
	it('one execution alone grows past half the ceiling, as before', async () => {
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 300 });
		const run = await runNode(ctx.emu, getEach, { inputItems: items(300) });
		expect(run.error).toBeUndefined();
		expect(run.json).toHaveLength(300);
		expect(ctx.emu.rateLimit()!.peak).toBeGreaterThan(AUTO_CAP / 2);
	});

	it('two executions at once stay under AUTO_CAP together, and both complete', async () => {
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 300 });
		const runs = await Promise.all([
			runNode(ctx.emu, getEach, { inputItems: items(300) }),
			runNode(ctx.emu, getEach, { inputItems: items(300) }),
		]);
		for (const run of runs) {
			expect(run.error).toBeUndefined();
			expect(run.json).toHaveLength(300);
		}
		const stats = ctx.emu.rateLimit()!;
		expect([stats.admitted, stats.rejected]).toEqual([600, 0]);
		// Each execution's own limit grows to AUTO_CAP: 256 at once without the shared ceiling.
		expect(stats.peak).toBeLessThanOrEqual(AUTO_CAP);
		expect(stats.peak).toBeGreaterThan(AUTO_CAP / 2);
	});

	it('a number set by the user is its execution’s own: it takes no slot of the ceiling', async () => {
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 300 });
		const fixed = runNode(
			ctx.emu,
			{ ...getEach, requestOptions: { concurrency: 20 } },
			{ inputItems: items(40) },
		);
		await whenServing(20);
		expect(autoCeiling.active).toBe(0);
		expect((await fixed).json).toHaveLength(40);
	});

	it('failed and timed-out requests give their slots back', async () => {
		// Every call reset: 200 items fail, each on the error output.
		ctx.emu.faults.add({ path: '/solution/installation/5001', reset: 'before', times: 1000 });
		const reset = await runNode(
			ctx.emu,
			{ ...getEach, requestOptions: { maxRetries: 0 } },
			{ inputItems: items(200), continueOnFail: true },
		);
		expect(reset.json.filter((json) => json.error)).toHaveLength(200);
		expect(autoCeiling.active).toBe(0);

		// Every call hangs past the Timeout: aborted by the request helper.
		ctx.emu.faults.clear();
		ctx.emu.faults.add({ path: '/solution/installation/5001', delayMs: 1000, times: 1000 });
		const timedOut = await runNode(
			ctx.emu,
			{ ...getEach, requestOptions: { maxRetries: 0, timeout: 0.1 } },
			{ inputItems: items(100), continueOnFail: true },
		);
		expect(timedOut.json.filter((json) => json.error)).toHaveLength(100);
		expect(autoCeiling.active).toBe(0);
	});

	it('a cancelled execution gives its slots back, in flight or waiting for the ceiling', async () => {
		// An execution stopped (n8n's Stop, a worker's timeout) while its requests are in flight.
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 2000 });
		const stopped = await runCancelled(200, whenServing(SLOW_START));
		expect(stopped.run.status).toBe('canceled');
		expect(stopped.error(NODE_NAME)?.message).toMatch(/canceled/);
		expect([autoCeiling.active, autoCeiling.queued]).toEqual([0, 0]);

		// An execution stopped while its requests wait for the ceiling (another one holds all of it):
		// each gets its turn, fails at once on the aborted signal, and gives its slot back.
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 1000 });
		const holder = runNode(ctx.emu, getEach, { inputItems: items(300) });
		await when(() => autoCeiling.active === AUTO_CAP);
		let waitingAtStop = 0;
		const waiter = await runCancelled(
			50,
			when(() => autoCeiling.queued >= SLOW_START).then(() => (waitingAtStop = autoCeiling.queued)),
		);
		expect(waitingAtStop).toBe(SLOW_START);
		expect(waiter.run.status).toBe('canceled');
		expect((await holder).json).toHaveLength(300);
		// Only the holder's requests reached the service: the stopped execution's never left.
		expect(ctx.emu.rateLimit()!.admitted).toBe(300);
		expect([autoCeiling.active, autoCeiling.queued]).toEqual([0, 0]);

		// The whole ceiling is there for the next execution.
		ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 300 });
		const after = await runNode(ctx.emu, getEach, { inputItems: items(300) });
		expect(after.json).toHaveLength(300);
		expect(ctx.emu.rateLimit()!.peak).toBeGreaterThan(AUTO_CAP / 2);
	});
});
