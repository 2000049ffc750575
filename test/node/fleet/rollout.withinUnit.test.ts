/**
 * Stop After Failures counts the failures inside a unit as they happen (the one change of the
 * execution model: units report each item as it ends). One installation's updates are one unit
 * under "Pause, Update, Then Start Again"; once the guard stops, the unit sends no further PUT,
 * still starts the installation again, and its unsent items are reported as not attempted.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { guardedUpdateFromItems, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

/** Four updates of one step of installation 5001 (run in item order): the first two refused. */
const ITEMS: IDataObject[] = [
	{ noSuchField: 'a' },
	{ noSuchField: 'b' },
	{ subject: 'Third' },
	{ subject: 'Fourth' },
].map((values) => ({ installation: 5001, bundle: 7001, step: 9002, values }));

/** Under plain Continue: every item in item order, the failed and never-started ones with `error`. */
const run = async (requestOptions: INodeParameters) =>
	await runNode(ctx.emu, guardedUpdateFromItems({ requestOptions }), {
		inputItems: ITEMS,
		continueOnFail: true,
	});

const puts = (calls: string[]) => calls.filter((call) => call === 'PUT /bundle/data/9002');

describe('Stop After Failures inside one unit', () => {
	it('the second refused PUT stops the unit: no further PUT, the installation started again', async () => {
		const result = await run({ stopAfterFailures: '1' });
		expect(puts(result.calls)).toHaveLength(2);
		expect(result.calls.filter((call) => call.startsWith('PAUSE '))).toHaveLength(1);
		expect(result.calls.at(-1)).toBe('PLAY /solution/installation/5001');
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
		expect(result.json.map((item) => typeof item.error)).toEqual(Array(4).fill('string'));
		for (const item of result.json.slice(2))
			expect(item.error).toBe(
				'Not attempted: Stop After Failures (1) was exceeded. 0 done, 2 failed, 2 not attempted',
			);
	});

	it('within the limit, every item of the unit is sent', async () => {
		const result = await run({ stopAfterFailures: '2' });
		expect(puts(result.calls)).toHaveLength(4);
		expect(result.json.map((item) => item.error === undefined)).toEqual([false, false, true, true]);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
	});
});
