/**
 * Stop After Failures counts the failures inside a unit as they happen (the one change of the
 * execution model: units report each item as it ends). One installation's updates are one unit
 * under "Pause, Update, Then Start Again"; once the guard stops, the unit sends no further PUT,
 * still starts the installation again, and its unsent items are reported as not attempted.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../../harness';
import { byId, NODE_NAME, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const update = (requestOptions: INodeParameters): INodeParameters => ({
	resource: 'bundleData',
	operation: 'update',
	installationId: byId('id', '={{ $json.installation }}'),
	bundleId: '={{ $json.bundle }}',
	stepId: '={{ $json.step }}',
	fieldValuesMode: 'json',
	fieldValues: '={{ JSON.stringify($json.values) }}',
	ifActive: 'pauseAndResume',
	requestOptions,
});

/** Four updates of one step of installation 5001 (run in item order): the first two refused. */
const ITEMS: IDataObject[] = [
	{ noSuchField: 'a' },
	{ noSuchField: 'b' },
	{ subject: 'Third' },
	{ subject: 'Fourth' },
].map((values) => ({ installation: 5001, bundle: 7001, step: 9002, values }));

async function run(requestOptions: INodeParameters) {
	const before = ctx.emu.requests.length;
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters: update(requestOptions),
				onError: 'continueErrorOutput',
			},
		],
		inputItems: ITEMS,
		credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
	});
	const calls = ctx.emu.requests.slice(before).map((r) => `${r.method} ${r.path}`);
	return { success: result.outputAt(NODE_NAME, 0), failed: result.outputAt(NODE_NAME, 1), calls };
}

const ids = (items: INodeExecutionData[]) => items.map((item) => item.pairedItem);

describe('Stop After Failures inside one unit', () => {
	it('the second refused PUT stops the unit: no further PUT, the installation started again', async () => {
		const result = await run({ stopAfterFailures: '1' });
		expect(result.calls.filter((call) => call === 'PUT /bundle/data/9002')).toHaveLength(2);
		expect(result.calls.filter((call) => call.startsWith('PAUSE '))).toHaveLength(1);
		expect(result.calls.at(-1)).toBe('PLAY /solution/installation/5001');
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
		expect(ids(result.success)).toEqual([]);
		expect(ids(result.failed)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		for (const item of result.failed.slice(2))
			expect(item.json.error).toBe(
				'Not attempted: Stop After Failures (1) was exceeded. 0 done, 2 failed, 2 not attempted',
			);
	});

	it('within the limit, every item of the unit is sent', async () => {
		const result = await run({ stopAfterFailures: '2' });
		expect(result.calls.filter((call) => call === 'PUT /bundle/data/9002')).toHaveLength(4);
		expect(ids(result.success)).toEqual([{ item: 2 }, { item: 3 }]);
		expect(ids(result.failed)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
	});
});
