/**
 * Pickers and mappers give the same lists and fields under every shape variant whose answer carries
 * the same information (the ones that drop labels, titles or `required` are covered in
 * test/node/variants.test.ts).
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Variants } from '../../emulator';
import { METHODS, PARENTS, usePickers } from '../support/methodsSetup';

const pickers = usePickers();

const VARIANTS: Array<[string, Partial<Variants>]> = [
	['bare', { bare: true }],
	['success flag "true"/"false"', { successFlag: 'string' }],
	['success flag 1/0', { successFlag: 'number' }],
	['stringIds', { stringIds: true }],
	['wrapLists', { wrapLists: true }],
	['values [{id,title}]', { valuesShape: 'idTitle' }],
	['values [{id,value}]', { valuesShape: 'idValue' }],
	['values {id: title}', { valuesShape: 'map' }],
	['nested under each value', { nestedUnder: 'value' }],
	['bundle data keyed by step id', { bundleDataShape: 'map' }],
	['every list keyed by id', { listShape: 'map' }],
	['status "1"/"0"', { statusShape: 'string' }],
	['status "active"/"paused"', { statusShape: 'word' }],
	['detail without status', { detailWithoutStatus: true }],
	['installation wrapped', { installationWrapper: true }],
	['lists paged, headers', { pagination: 'headers' }],
	['lists paged, Link header, page parameter renamed', { pagination: 'link', pageParam: 'p' }],
	['lists paged, {items, _links, _meta}', { pagination: 'body' }],
	[
		'many at once',
		{
			bare: true,
			stringIds: true,
			wrapLists: true,
			valuesShape: 'idValue',
			nestedUnder: 'value',
			bundleDataShape: 'map',
			statusShape: 'word',
			installationWrapper: true,
		},
	],
];

// The connection-settings mapper with two levels chosen, so nested steps must show.
const CALLS: Array<{
	kind: (typeof METHODS)[number]['kind'];
	method: string;
	parameters: INodeParameters;
}> = [
	...METHODS.map(({ kind, method }) => ({
		kind,
		method,
		parameters: PARENTS[method] as INodeParameters,
	})),
	{
		kind: 'resourceMapping',
		method: 'getConnectionSettingsFields',
		parameters: {
			...PARENTS.getConnectionSettingsFields,
			connectionSettings: {
				mappingMode: 'defineBelow',
				value: { crm: 'hubspot', hubspotPipeline: 'sales' },
			},
		},
	},
];

async function everyMethod(variants: Partial<Variants>) {
	pickers.emu.reset();
	pickers.emu.setVariants(variants);
	const out: unknown[] = [];
	for (const { kind, method, parameters } of CALLS)
		out.push([method, (await pickers.call(kind, method, parameters)).result]);
	return out;
}

it.each(VARIANTS)(
	'%s: every picker and mapper as under the documented shapes',
	async (_name, variants) => {
		const expected = await everyMethod({});
		expect(JSON.stringify(expected)).toContain('↳ ↳ Stage'); // three levels reached: the comparison is not empty
		expect(await everyMethod(variants)).toEqual(expected);
	},
);
