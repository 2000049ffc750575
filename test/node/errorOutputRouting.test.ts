/**
 * Which output n8n sends an error item to under "Continue (using error output)", on each n8n the
 * package is tested with. The rule is `WorkflowExecute.handleNodeErrorOutput` in n8n's
 * packages/core/src/execution-engine/workflow-execute.ts, read in the n8n-core each n8n release
 * ships (npm): 1.122.48 (n8n 1.123.81), 2.0.2 (n8n 2.0.3), 2.11.1 (this harness) and 2.35.0 have
 * ROUTED_BEFORE_2_36; 2.36.0 and 2.41.1 (n8n 2.41.1) have ROUTED_SINCE_2_36. In every one of them an
 * item with its own `error` set is routed too, but its json is then replaced by the bare message
 * (the loop over `lineResult` after the node ran), so the node never sets it.
 *
 * The runs go through this harness's n8n-core, which routes by the older rule (as n8n 1.123 and
 * 2.0 do); each error item is also checked against the newer rule, so the same split holds on 2.41.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { runWorkflow } from '../../harness';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { byId, NODE_NAME, useEmulator } from '../support/setup';

const ctx = useEmulator();

/** n8n-core before 2.36: json of `error` alone, or of `error` and a non-empty `message`. */
function ROUTED_BEFORE_2_36(item: INodeExecutionData): boolean {
	const keys = Object.keys(item.json);
	if (item.error) return true;
	if (item.json.error && keys.length === 1) return true;
	return Boolean(item.json.error && item.json.message && keys.length === 2);
}

/** n8n-core 2.36 and later: json with `error` and nothing but `message` and `details`. */
function ROUTED_SINCE_2_36(item: INodeExecutionData): boolean {
	if (item.error) return true;
	const allowed = ['error', 'message', 'details'];
	return Boolean(item.json.error) && Object.keys(item.json).every((key) => allowed.includes(key));
}

/** 6 items one at a time; 1 and 3 fail (404), Stop After Failures 1 leaves 4 and 5 unstarted. */
const ITEMS = [5001, 999999, 5002, 999999, 5001, 5002].map((id) => ({ id }));
const PARAMETERS: INodeParameters = {
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', '={{ $json.id }}'),
	requestOptions: { stopAfterFailures: '1', concurrency: 1 },
};

async function stoppedRun(typeVersion: number) {
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				typeVersion,
				parameters: PARAMETERS,
				onError: 'continueErrorOutput',
			},
		],
		inputItems: ITEMS as IDataObject[],
		credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
	});
	expect(result.error(NODE_NAME)).toBeUndefined();
	return { success: result.outputAt(NODE_NAME, 0), failed: result.outputAt(NODE_NAME, 1) };
}

/** The item as the node returned it: n8n merges the input's fields (`id`) in after routing. */
const asReturned = ({ id: _input, ...json }: IDataObject): INodeExecutionData => ({ json });
const paired = (items: INodeExecutionData[]) =>
	items.map((item) => (item.pairedItem as { item: number }).item);
const isNotAttempted = (item: INodeExecutionData) =>
	String(item.json.error).startsWith('Not attempted:');

describe('error output routing on every tested n8n (Continue using error output)', () => {
	it('version 3: failed and never-started items on the error output, done items alone on the success output', async () => {
		const { success, failed } = await stoppedRun(3);
		expect(paired(success)).toEqual([0, 2]);
		expect(paired(failed)).toEqual([1, 3, 4, 5]);
		expect(failed.filter(isNotAttempted).map((item) => paired([item])[0])).toEqual([4, 5]);
		// The same split under the newer rule (n8n 2.36 to 2.41): nothing moves.
		for (const item of failed) {
			expect(ROUTED_BEFORE_2_36(asReturned(item.json))).toBe(true);
			expect(ROUTED_SINCE_2_36(asReturned(item.json))).toBe(true);
			expect(item.error).toBeUndefined();
		}
		for (const item of success) {
			expect(ROUTED_BEFORE_2_36(item)).toBe(false);
			expect(ROUTED_SINCE_2_36(item)).toBe(false);
		}
		expect(failed[2].json).toMatchObject({
			error:
				'Not attempted: Stop After Failures (1) was exceeded. 2 done, 2 failed, 2 not attempted',
			message: expect.stringMatching(/^Nothing was sent for this item\./),
		});
	});

	it('version 2 (saved workflows): never-started items keep `details`, which only n8n 2.36 and later route to the error output', async () => {
		const { success, failed } = await stoppedRun(2);
		// This harness routes as n8n 1.123 and 2.0 do: they come out beside the done items.
		expect(paired(success)).toEqual([0, 2, 4, 5]);
		expect(paired(failed)).toEqual([1, 3]);
		const unstarted = success.filter(isNotAttempted);
		expect(paired(unstarted)).toEqual([4, 5]);
		for (const item of unstarted) {
			expect(item.json.details).toMatchObject({ notAttempted: true });
			expect(ROUTED_BEFORE_2_36(item)).toBe(false);
			expect(ROUTED_SINCE_2_36(item)).toBe(true);
		}
	});
});
