/**
 * The client feeds its in-flight limiter every answer: answers without 429 open the window (Auto's
 * slow start grows past its first 8), so a service that is not rate limited gets the run at speed.
 * The emulator counts the most requests it served at once.
 */
import { forTests } from '../../nodes/shared/transport/limiter';
import { byId, runNode, useEmulator } from '../support/setup';

const { SLOW_START } = forTests;

const ctx = useEmulator();

it('Items in Flight Auto, no 429: more than the first window in flight once answers come back', async () => {
	ctx.emu.setRateLimit({ maxConcurrent: 1000, retryAfterSeconds: 0, serviceMs: 40 });
	const items = Array.from({ length: 40 }, () => ({ id: 5001 }));
	const run = await runNode(
		ctx.emu,
		{ resource: 'installation', operation: 'get', installationId: byId('id', '={{ $json.id }}') },
		{ inputItems: items },
	);
	expect(run.error).toBeUndefined();
	expect(run.calls).toHaveLength(40);
	const stats = ctx.emu.rateLimit()!;
	expect(stats.rejected).toBe(0);
	expect(stats.peak).toBeGreaterThan(SLOW_START);
});
