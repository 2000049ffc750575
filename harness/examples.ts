/**
 * Runs a workflow from examples/ (as exported from n8n) in n8n-core's engine with our nodes.
 * Used by the demo and by the test that keeps the examples working.
 */
import { readFileSync } from 'fs';
import type {
	IConnections,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import {
	runWorkflow,
	type HarnessNode,
	type RunWorkflowResult,
	type TestCredentials,
} from './index';

/** n8n's Manual Trigger is in nodes-base, which is not installed: this stands in for it (one empty item). */
class ManualTriggerStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Manual Trigger (stand-in)',
		name: 'n8n-nodes-base.manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Starts the workflow once with one empty item',
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

export interface ExampleWorkflow {
	name: string;
	nodes: HarnessNode[];
	connections: IConnections;
}

export function readExample(file: string): ExampleWorkflow {
	return JSON.parse(readFileSync(file, 'utf8')) as ExampleWorkflow;
}

export async function runExample(
	workflow: ExampleWorkflow,
	nodeTypes: INodeType[],
	credentials: TestCredentials,
): Promise<RunWorkflowResult> {
	return await runWorkflow({
		nodeTypes: [...nodeTypes, new ManualTriggerStandIn()],
		nodes: workflow.nodes,
		connections: workflow.connections,
		credentials,
	});
}
