/**
 * Two "workers" in one test process: each loads its own copy of the node (jest.isolateModules), so
 * neither shares the other's in-process install ledger, as two n8n workers would not.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../../emulator';
import { runWorkflow } from '../../../harness';
import type { AlbatoSolutions as NodeClass } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { NODE_NAME } from '../../support/setup';

export function separateWorker(): typeof NodeClass {
	let loaded!: typeof NodeClass;
	jest.isolateModules(() => {
		loaded = jest.requireActual<{ AlbatoSolutions: typeof NodeClass }>(
			'../../../nodes/AlbatoSolutions/AlbatoSolutions.node',
		).AlbatoSolutions;
	});
	return loaded;
}

/**
 * Runs the node once on `worker` under On Error → Continue: the items with `error` are the ones the
 * error output gets in n8n 2.41 (which also routes `details`; the n8n-core of these tests, 2.11,
 * routes only error + message, so routing itself is checked in the real n8n by
 * `npm run e2e:queue`).
 */
export async function runOn(
	worker: typeof NodeClass,
	emu: Emulator,
	parameters: INodeParameters,
	inputItems: IDataObject[] = [{}],
) {
	const result = await runWorkflow({
		nodeTypes: [new worker()],
		nodes: [
			{ name: NODE_NAME, type: 'albatoSolutions', parameters, onError: 'continueRegularOutput' },
		],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } },
	});
	const out = result.output(NODE_NAME).map((item) => item.json);
	return {
		success: out.filter((json) => json.error === undefined),
		failed: out.filter((json) => json.error !== undefined),
		error: result.error(NODE_NAME),
	};
}
