/**
 * What n8n reports before a run for a bad value (its node issues, which the editor shows as a toast
 * and beside the field): each problem once. n8n checks a collection's fields against the node's
 * top-level values too, so two fields with one name and the same check would report it twice.
 */
import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';

const { description } = new AlbatoSolutions();

function issuesOf(parameters: INodeParameters) {
	const node = {
		id: 'n',
		name: 'Albato',
		type: 'n8n-nodes-albato-solutions.albatoSolutions',
		typeVersion: 3,
		position: [0, 0],
		parameters,
	} as INode;
	node.parameters = NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		true,
		false,
		node,
		description,
	)!;
	return NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters;
}

it.each([
	['Solution → Get Templates', { resource: 'solution', operation: 'getTemplates' }],
	['Installation → Create', { resource: 'installation', operation: 'create' }],
])('%s: a Solution ID typed as text is reported once', (_name, operation) => {
	const issues = issuesOf({
		...operation,
		solutionId: { __rl: true, mode: 'id', value: 'CRM Leads' },
	});
	expect(issues?.solutionId).toEqual(['Solution ID is a whole number, e.g. 101']);
});
