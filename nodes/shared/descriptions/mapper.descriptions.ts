import type { INodeProperties } from 'n8n-workflow';

/**
 * A "Map Each Field / JSON" pair: a resource mapper filled from the service, with a JSON field for
 * expressions and AI agents. `json` is the existing JSON property, shown in JSON mode.
 */
export function mapperOrJson(spec: {
	mode: string;
	mapper: string;
	displayName: string;
	method: string;
	dependsOn: string[];
	singular: string;
	plural: string;
	addAllFields: boolean;
	json: INodeProperties;
}): INodeProperties[] {
	return [
		{
			displayName: `${spec.displayName} Input`,
			name: spec.mode,
			type: 'options',
			default: 'mapper',
			options: [
				{
					name: 'Map Each Field',
					value: 'mapper',
					description: `Pick each ${spec.singular} from what the service offers`,
				},
				{ name: 'JSON', value: 'json', description: 'Give all of them as one JSON object' },
			],
		},
		{
			displayName: spec.displayName,
			name: spec.mapper,
			type: 'resourceMapper',
			noDataExpression: true,
			default: { mappingMode: 'defineBelow', value: null },
			required: true,
			typeOptions: {
				loadOptionsDependsOn: spec.dependsOn,
				resourceMapper: {
					resourceMapperMethod: spec.method,
					mode: 'add',
					fieldWords: { singular: spec.singular, plural: spec.plural },
					addAllFields: spec.addAllFields,
					multiKeyMatch: false,
					supportAutoMap: false,
				},
			},
			displayOptions: { show: { [spec.mode]: ['mapper'] } },
		},
		{ ...spec.json, displayOptions: { show: { [spec.mode]: ['json'] } } },
	];
}
