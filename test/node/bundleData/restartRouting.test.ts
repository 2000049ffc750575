/**
 * Bundle Data → Update, "Pause, Update, Then Start Again", when the restart fails for good: under
 * "Continue (using error output)" the applied items leave through the error output, saying the
 * installation is left paused, how to start it and which updates applied. Plain "Continue" and no
 * Continue On Fail keep their behaviour (update.halfFailures.test.ts).
 */
import type { IDataObject } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../../harness';
import { guardedUpdateFromItems, NODE_NAME, useEmulator } from '../../support/setup';

const ctx = useEmulator();
const ACME = '/solution/installation/5001';
const ITEMS: IDataObject[] = [
	{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Restart proof' } },
	{ installation: 5001, bundle: 7002, step: 9004, values: { tag: 'vip' } },
	{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'Other installation' } },
];

async function run(onError: 'continueErrorOutput' | 'continueRegularOutput') {
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters: guardedUpdateFromItems({ requestOptions: { maxRetries: 0, retryBudget: 10 } }),
				onError,
			},
		],
		inputItems: ITEMS,
		credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
	});
	return {
		success: result.outputAt(NODE_NAME, 0),
		failed: result.outputAt(NODE_NAME, 1),
		error: result.error(NODE_NAME),
	};
}

describe('a failed restart after Pause, Update, Then Start Again', () => {
	beforeEach(() => {
		ctx.emu.state.installations.get(5002)!.status = 1;
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503, times: 5 });
	});

	it('Continue (using error output): the applied items of the paused installation go to the error output', async () => {
		const out = await run('continueErrorOutput');
		expect(out.error).toBeUndefined();
		// The other installation restarted fine: its item stays a success.
		expect(out.success.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[9006, { item: 2 }],
		]);
		expect(out.failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		for (const item of out.failed) {
			expect(item.json).not.toHaveProperty('restartError'); // n8n merges the input item's fields in
			expect(item.json.error).toMatch(
				/^Installation 5001 is left paused: it was paused for the update and could not be started again \(Emulated fault: 503/,
			);
			expect(item.json.message).toMatch(
				/The updates of items 0, 1 were applied: step 9002 \(subject\); step 9004 \(tag\)\. Start it with Installation → Start/,
			);
			expect(item.json.message).toBe(
				`The updates of items 0, 1 were applied: step 9002 (subject); step 9004 (tag). Start it with Installation → Start when the service answers again. (PLAY ${ACME} → 503. The service failed; try again later.)`,
			);
		}
		// The updates did apply, and the installation really is paused.
		expect(ctx.emu.state.installations.get(5001)?.status).toBe(0);
		expect(ctx.emu.state.installations.get(5002)?.status).toBe(1);
		const tag = ctx.emu.state.bundleData.get(9004)?.fields.find((f) => f.name === 'tag');
		expect(tag?.value).toBe('vip');
	});

	it('plain Continue: the items stay on the success output and carry restartError (as before)', async () => {
		const out = await run('continueRegularOutput');
		expect(out.error).toBeUndefined();
		expect(out.success.map((item) => item.json.id)).toEqual([9002, 9004, 9006]);
		expect(out.success[0].json.restartError).toMatch(/Installation 5001 was paused/);
		expect(out.success[2].json).not.toHaveProperty('restartError');
	});
});
