import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

/**
 * Shows a group of properties only for one resource and operation (merged into each property's own
 * displayOptions).
 */
export function forOperation(
	resource: string,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	const shown: IDisplayOptions['show'] = { resource: [resource], operation: [operation] };
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, ...shown },
		},
	}));
}
