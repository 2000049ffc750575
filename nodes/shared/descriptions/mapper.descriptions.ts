import type { INodeProperties } from 'n8n-workflow';

/**
 * A "Map Each Field / JSON" pair: a resource mapper filled from the service, with a JSON field for
 * expressions and AI agents. `json` is the existing JSON property, shown in JSON mode.
 */
export function mapperOrJson(spec: MapperOrJson): INodeProperties[] {
	return [
		modeProperty(spec),
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
					// n8n heads a mapper "Values to Send"; say what these values are.
					valuesLabel: spec.displayName,
					fieldWords: { singular: spec.singular, plural: spec.plural },
					addAllFields: spec.addAllFields,
					multiKeyMatch: false,
					supportAutoMap: false,
				},
			},
			displayOptions: { show: { [spec.mode]: ['mapper'] } },
		},
		...noticeOf(spec),
		{ ...spec.json, displayOptions: { show: { [spec.mode]: ['json'] } } },
	];
}

interface MapperOrJson {
	mode: string;
	mapper: string;
	displayName: string;
	method: string;
	dependsOn: string[];
	singular: string;
	plural: string;
	addAllFields: boolean;
	json: INodeProperties;
	/** A notice shown above the mapper (e.g. how nested choices appear). */
	notice?: string;
	/** Further conditions for the notice (e.g. only once a parent is chosen). */
	noticeShow?: NonNullable<INodeProperties['displayOptions']>['show'];
}

/** The "Map Each Field / JSON" switch. */
function modeProperty(spec: MapperOrJson): INodeProperties {
	return {
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
	};
}

/** The notice above the mapper, when there is one. */
function noticeOf(spec: MapperOrJson): INodeProperties[] {
	if (!spec.notice) return [];
	return [
		{
			displayName: spec.notice,
			name: `${spec.mapper}Notice`,
			type: 'notice',
			default: '',
			displayOptions: { show: { [spec.mode]: ['mapper'], ...spec.noticeShow } },
		},
	];
}
