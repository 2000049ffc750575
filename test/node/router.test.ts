/**
 * On Error → "Continue (using error output)": n8n-core's engine itself splits the node's output, so
 * these tests prove the routing that users see, for a single-item operation and for Bundle Data →
 * Update's batch path (pause-and-resume), and that "Continue" (regular output) still carries the
 * error with its HTTP status. The same is checked in the real n8n 2.41 by
 * scripts/e2e/errorOutput.mjs.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../harness';
import { byId, guardedUpdateFromItems, NODE_NAME, useEmulator } from '../support/setup';

const ctx = useEmulator();

async function runWithErrorOutput(
	parameters: INodeParameters,
	inputItems: IDataObject[],
	onError = 'continueErrorOutput',
	baseUrl = ctx.emu.baseUrl,
) {
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters,
				onError: onError as 'continueErrorOutput',
			},
		],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl, accessToken: ctx.token } },
	});
	return {
		success: result.outputAt(NODE_NAME, 0),
		failed: result.outputAt(NODE_NAME, 1),
		error: result.error(NODE_NAME),
	};
}

const getInstallation: INodeParameters = {
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', '={{ $json.id }}'),
};

describe('error output (On Error → Continue (using error output))', () => {
	it('a single-item operation: failed items on the error output, good ones on the success output', async () => {
		const run = await runWithErrorOutput(getInstallation, [
			{ id: 5001 },
			{ id: 999999 },
			{ id: 5002 },
		]);
		expect(run.error).toBeUndefined();
		expect(run.success.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[5001, { item: 0 }],
			[5002, { item: 2 }],
		]);
		expect(run.failed).toHaveLength(1);
		expect(run.failed[0].pairedItem).toEqual({ item: 1 });
		expect(run.failed[0].json).toEqual({
			id: 999999, // n8n merges the input item's fields in: the user sees which input failed
			error: 'Installation 999999 not found',
			message: expect.stringMatching(/^GET \/solution\/installation\/999999 → 404\. Check the ID/),
		});
	});

	it('bad input (NodeOperationError, no request) goes to the error output too', async () => {
		const run = await runWithErrorOutput(getInstallation, [{ id: 'not-a-number' }, { id: 5002 }]);
		expect(run.success.map((item) => item.json.id)).toEqual([5002]);
		expect(run.failed.map((item) => item.pairedItem)).toEqual([{ item: 0 }]);
		expect(String(run.failed[0].json.error)).toMatch(/Installation/);
		expect(ctx.emu.requests.map((entry) => entry.path)).toEqual(['/solution/installation/5002']);
	});

	it("Bundle Data → Update's batch path: the refused update on the error output, the others on success", async () => {
		const run = await runWithErrorOutput(guardedUpdateFromItems(), [
			{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Changed' } },
			{ installation: 5001, bundle: 7001, step: 9002, values: { nope: 1 } },
			{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'Also changed' } },
		]);
		expect(run.error).toBeUndefined();
		expect(run.success.map((item) => [item.json.id, item.pairedItem])).toEqual([
			[9002, { item: 0 }],
			[9006, { item: 2 }],
		]);
		expect(run.failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }]);
		expect(run.failed[0].json).toMatchObject({
			error: expect.stringMatching(/nope/),
			message: expect.stringMatching(/→ 422/),
		});
		// The installation is started again even though one of its updates failed.
		expect(ctx.emu.state.installations.get(5001)?.status).toBe(1);
	});

	it('a credential problem fails every item onto the error output (not passed on as if it had worked)', async () => {
		const run = await runWithErrorOutput(
			getInstallation,
			[{ id: 5001 }, { id: 5002 }],
			'continueErrorOutput',
			`${ctx.emu.baseUrl}/?x=1`,
		);
		expect(run.success).toEqual([]);
		expect(run.failed.map((item) => [item.json.id, item.json.error, item.pairedItem])).toEqual([
			[
				5001,
				'The credential\'s Base URL contains a query ("?…"): give only the address, e.g. https://api.albato.com',
				{ item: 0 },
			],
			[
				5002,
				'The credential\'s Base URL contains a query ("?…"): give only the address, e.g. https://api.albato.com',
				{ item: 1 },
			],
		]);
		expect(ctx.emu.requests).toEqual([]);
	});

	it('"Continue" (regular output): the failed item stays in place with error, message and HTTP status', async () => {
		const run = await runWithErrorOutput(
			getInstallation,
			[{ id: 999999 }, { id: 5002 }],
			'continueRegularOutput',
		);
		expect(run.failed).toEqual([]);
		expect(run.success.map((item) => item.json.id ?? item.json.httpCode)).toEqual(['404', 5002]);
		expect(run.success[0].json).toEqual({
			error: 'Installation 999999 not found',
			message: expect.stringMatching(/→ 404/),
			httpCode: '404',
		});
	});
});
