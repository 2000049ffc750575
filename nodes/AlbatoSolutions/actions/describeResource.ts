import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { forOperation } from '../../shared/descriptions/forOperation';
import type { Operation } from './types';

/**
 * A resource's properties, built from its `operations` map (the one place an operation is named):
 * the Operation menu, one entry per operation (its `option`, valued by its key, sorted by name as
 * n8n's lint wants), then each operation's own `description`, shown for that operation only.
 */
export function describeResource<Operations extends Record<string, Operation>>(
	resource: string,
	operations: Operations,
	defaultOperation: keyof Operations & string,
): INodeProperties[] {
	const entries = Object.entries(operations);
	const menu: INodePropertyOptions[] = entries.map(([value, { option }]) => ({
		name: option.name,
		value,
		action: option.action,
		description: option.description,
	}));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: menu.sort((a, b) => a.name.localeCompare(b.name)),
			default: defaultOperation,
		},
		...entries.flatMap(([value, operation]) =>
			forOperation(resource, value, operation.description),
		),
	];
}
