/**
 * The built node (dist/) in n8n-core's engine: Installation → Get over N items, checked item by item,
 * and the node's default Items in Flight as its description declares it.
 */
import path from 'path';

import type { IDataObject, INodeParameters, INodeType, INodeProperties } from 'n8n-workflow';

import { DIST, IDS, NODE_NAME, seconds } from './options';

/* eslint-disable @typescript-eslint/no-require-imports */
// Imported after N8N_USER_FOLDER is set.
export const harness = () => require('../../harness') as typeof import('../../harness');
const nodeClass = () =>
	(
		require(path.join(DIST, 'nodes/AlbatoSolutions/AlbatoSolutions.node.js')) as {
			AlbatoSolutions: new () => INodeType;
		}
	).AlbatoSolutions;
/* eslint-enable @typescript-eslint/no-require-imports */

export async function runNode(
	baseUrl: string,
	token: string,
	parameters: INodeParameters,
	inputItems: IDataObject[],
) {
	const AlbatoSolutions = nodeClass();
	const result = await harness().runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [{ name: NODE_NAME, type: 'albatoSolutions', parameters }],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl, accessToken: token } },
	});
	const error = result.error(NODE_NAME);
	if (error) throw new Error(`node failed: ${error.message}`);
	return result.output(NODE_NAME);
}

/** Installation → Get per item; `inFlight` undefined = the node's defaults (no Request Options). */
export const getParameters = (inFlight?: number): INodeParameters => ({
	resource: 'installation',
	operation: 'get',
	installationId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	...(inFlight === undefined ? {} : { requestOptions: { concurrency: inFlight } }),
});
export const getItems = (n: number) =>
	Array.from({ length: n }, (_, i) => ({ id: IDS[i % IDS.length] }));

/** N items through the node; checks every output and its pairing. */
export async function nodeGets(
	baseUrl: string,
	token: string,
	n: number,
	inFlight?: number,
): Promise<number> {
	const items = getItems(n);
	const started = process.hrtime.bigint();
	const output = await runNode(baseUrl, token, getParameters(inFlight), items);
	const taken = seconds(started);
	if (output.length !== n) throw new Error(`expected ${n} items, got ${output.length}`);
	output.forEach((item, i) => {
		if (item.json.id !== items[i].id || (item.pairedItem as { item: number }).item !== i)
			throw new Error(`item ${i}: wrong output or pairing`);
	});
	return taken;
}

/** The node's default Items in Flight, as its description declares it. */
export function defaultItemsInFlight(): number {
	const AlbatoSolutions = nodeClass();
	const options = (new AlbatoSolutions().description.properties.find(
		(p) => p.name === 'requestOptions',
	)?.options ?? []) as INodeProperties[];
	return Number(options.find((o) => o.name === 'concurrency')?.default);
}
