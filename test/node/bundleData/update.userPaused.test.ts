/** Bundle Data → Update: an installation the user paused stays paused. */

import { runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Bundle Data → Update: an installation the user paused stays paused', () => {
	const GLOBEX = '/solution/installation/5002';
	it('a field error whose text mentions "paused" is not taken for "pause first": no PAUSE, no PLAY', async () => {
		const run = await runNode(
			ctx.emu,
			{
				resource: 'bundleData',
				operation: 'update',
				installationId: { __rl: true, mode: 'id', value: '5002' },
				bundleId: 7003,
				stepId: 9006,
				fieldValuesMode: 'json',
				fieldValues: '{"paused_reason": "holiday"}',
				ifActive: 'pauseAndResume',
				requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 1 },
			},
			{ continueOnFail: true },
		);
		expect(run.json[0].error).toMatch(/paused_reason/);
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(0);
		expect(run.calls.filter((call) => call.startsWith('PLAY'))).toEqual([]);
		expect(run.calls).not.toContain(`PAUSE ${GLOBEX}`);
		// Sent again while it reads paused (another execution may hold it paused right now), bounded.
		expect(run.calls.filter((call) => call === 'PUT /bundle/data/9006')).toHaveLength(5);
	});
});
