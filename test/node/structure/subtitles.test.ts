/**
 * Canvas subtitles and the node descriptions (point 18), evaluated the way n8n's
 * editor does: the subtitle expression over the node's parameters, by n8n-workflow's Expression.
 */
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { makeNodeTypes } from '../../../harness';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { operationNames } from '../../../nodes/AlbatoSolutions/actions';
import { AlbatoSolutionsTrigger } from '../../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';

const action = new AlbatoSolutions();
const trigger = new AlbatoSolutionsTrigger();

/** The subtitle n8n shows for a node with these parameters (defaults filled, as the editor does). */
function subtitle(description: INodeTypeDescription, parameters: INodeParameters): unknown {
	const node: INode = {
		id: '1',
		name: 'Node',
		type: description.name,
		typeVersion: 2,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: makeNodeTypes([action, trigger]),
	});
	return workflow.expression.getSimpleParameterValue(node, description.subtitle!, 'internal', {});
}

describe('canvas subtitles show what the user reads', () => {
	it.each([
		['endUser', 'create', 'Create: End User'],
		['credential', 'getLinkStatus', 'Get Link Status: Credential'],
		['installation', 'getAll', 'Get Many: Installation'],
		['bundleData', 'update', 'Update: Bundle Data'],
		['run', 'getAll', 'Get Many: Run'],
	])('%s → %s: "%s"', (resource, operation, expected) => {
		expect(subtitle(action.description, { resource, operation })).toBe(expected);
	});

	it('every operation of every resource has its menu name in the subtitle', () => {
		for (const [resource, operations] of Object.entries(operationNames))
			for (const [operation, name] of Object.entries(operations))
				expect(subtitle(action.description, { resource, operation })).toMatch(
					new RegExp(`^${name}: `),
				);
	});

	it('an unknown value shows as it is, never "undefined"', () => {
		expect(subtitle(action.description, { resource: 'installation', operation: 'x' })).toBe(
			'x: Installation',
		);
	});

	it('the trigger names its events as the Events list does', () => {
		expect(subtitle(trigger.description, { events: ['runFailed', 'installationCreated'] })).toBe(
			'Run Failed, Installation Created',
		);
		expect(subtitle(trigger.description, { events: [] })).toBe('');
	});

	it('no subtitle expression holds "}}" before its end', () => {
		for (const { subtitle: text } of [action.description, trigger.description])
			expect(text!.indexOf('}}')).toBe(text!.length - 2);
	});
});

describe('node descriptions read well in both places', () => {
	it("the trigger's (heading the merged action list in n8n's panel) speaks of both nodes", () => {
		const text = trigger.description.description;
		expect(text).toMatch(/^Manage the Albato solutions of your customers/);
		expect(text).toMatch(/start a workflow when/);
		expect(action.description.description).toMatch(
			/^Manage the Albato solutions of your customers/,
		);
	});
});
