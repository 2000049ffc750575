/**
 * Walks the node's description and checks the conventions n8n's own nodes follow (and its lint and
 * reviewers enforce), so a new parameter cannot quietly break them.
 */
import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { AlbatoSolutionsApi } from '../../credentials/AlbatoSolutionsApi.credentials';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { forTests } from '../../nodes/AlbatoSolutions/actions';

const { resources } = forTests;

const node = new AlbatoSolutions();
const { properties } = node.description;

function walk(list: INodeProperties[], visit: (property: INodeProperties) => void) {
	for (const property of list) {
		visit(property);
		for (const option of (property.options ?? []) as Array<
			INodeProperties | INodePropertyOptions | INodePropertyCollection
		>) {
			if ('type' in option) walk([option as INodeProperties], visit);
			if ('values' in option) walk((option as INodePropertyCollection).values, visit);
		}
	}
}

const all: INodeProperties[] = [];
walk(properties, (property) => all.push(property));

describe('node description', () => {
	it('is usable as an AI tool and takes either credential, Access Token by default', () => {
		expect(node.description.usableAsTool).toBe(true);
		expect(node.description.credentials).toEqual([
			{
				name: new AlbatoSolutionsApi().name,
				testedBy: 'albatoSolutionsApiTest',
				required: true,
				displayOptions: { show: { authentication: ['accessToken'] } },
			},
			{
				name: new AlbatoPartnerApi().name,
				testedBy: 'albatoPartnerApiTest',
				required: true,
				displayOptions: { show: { authentication: ['partnerApi'] } },
			},
		]);
		expect(properties.find((property) => property.name === 'authentication')?.default).toBe(
			'accessToken',
		);
	});

	it('has an operation selector per resource whose options all have an action, sorted by name', () => {
		const resource = properties.find((property) => property.name === 'resource')!;
		expect(resource.noDataExpression).toBe(true);
		const resourceValues = (resource.options as INodePropertyOptions[]).map(
			(option) => option.value,
		);
		expect(resourceValues.sort()).toEqual(Object.keys(resources).sort());
		expect(resourceValues.length).toBeGreaterThan(0);
		let actionsChecked = 0;
		for (const value of resourceValues) {
			const selector = properties.find(
				(property) =>
					property.name === 'operation' && property.displayOptions?.show?.resource?.includes(value),
			)!;
			expect(selector.noDataExpression).toBe(true);
			const options = selector.options as INodePropertyOptions[];
			expect(options.map((option) => option.value).sort()).toEqual(
				Object.keys(resources[value as keyof typeof resources]).sort(),
			);
			expect(options.length).toBeGreaterThan(0);
			for (const option of options) {
				actionsChecked++;
				expect(option.action).toMatch(/^[A-Z][a-z]/);
				expect(option.action).toBe(
					option.action![0] + option.action!.slice(1).toLowerCase().replace(/ id\b/g, ' ID'),
				);
			}
			const names = options.map((option) => option.name);
			expect(names).toEqual([...names].sort());
		}
		expect(actionsChecked).toBeGreaterThanOrEqual(resourceValues.length);
	});

	it('says "Get Many" (getAll), never "Get All"', () => {
		let optionsChecked = 0;
		for (const property of all) {
			for (const option of (property.options ?? []) as INodePropertyOptions[]) {
				optionsChecked++;
				expect(String(option.name)).not.toMatch(/get all/i);
			}
		}
		expect(optionsChecked).toBeGreaterThan(0);
	});

	it('gives every property a valid default, Title Case names and "ID" capitalised', () => {
		expect(all.length).toBeGreaterThan(20);
		for (const property of all) {
			expect(property.default).not.toBeUndefined();
			expect(property.displayName).toMatch(/^[A-Z0-9↳]/);
			expect(property.displayName).not.toMatch(/\bId\b|\bid\b/);
		}
	});

	it('starts boolean descriptions with "Whether"', () => {
		const booleans = all.filter((p) => p.type === 'boolean' && p.description);
		expect(booleans.length).toBeGreaterThan(0);
		for (const property of booleans) {
			expect(property.description).toMatch(/^Whether /);
		}
	});

	it('names dynamic options "Name or ID" and explains expressions', () => {
		const dynamic = all.filter((p) => p.typeOptions?.loadOptionsMethod);
		expect(dynamic.length).toBeGreaterThan(0);
		for (const property of dynamic) {
			expect(property.displayName).toMatch(/Names? or IDs?$/);
			expect(property.description).toMatch(/Choose from the list, or specify (an ID|IDs) using an/);
		}
	});

	it('sorts fixed options alphabetically and keeps defaults among them', () => {
		const fixed = all.filter(
			(p) => p.type === 'options' && p.name !== 'operation' && Array.isArray(p.options),
		);
		expect(fixed.length).toBeGreaterThan(0);
		let sortedChecked = 0;
		for (const property of fixed) {
			const options = property.options as INodePropertyOptions[];
			if (
				property.name.endsWith('Mode') ||
				property.name === 'ifActive' ||
				property.name === 'scope'
			) {
				// Ordered by intent: the safe or usual choice first.
			} else {
				const names = options.map((option) => option.name);
				expect(names).toEqual([...names].sort());
				sortedChecked++;
			}
			expect(options.map((option) => option.value)).toContain(property.default);
		}
		expect(sortedChecked).toBeGreaterThan(0);
	});

	it('uses the standard Return All / Limit pair', () => {
		const limits = all.filter((p) => p.name === 'limit');
		expect(limits.length).toBeGreaterThan(0);
		for (const limit of limits) {
			expect(limit.default).toBe(50);
			expect(limit.typeOptions?.minValue).toBe(1);
			expect(limit.displayOptions?.show?.returnAll).toEqual([false]);
		}
	});

	it('sets minValue and maxValue on numbers only (a text field ignores them)', () => {
		const bounded = all.filter(
			(p) => p.typeOptions?.minValue !== undefined || p.typeOptions?.maxValue !== undefined,
		);
		expect(bounded.length).toBeGreaterThan(0);
		for (const property of bounded)
			expect([property.name, property.type]).toEqual([property.name, 'number']);
	});

	it('writes every Options collection the one way (optionsCollection)', () => {
		const collections = all.filter((p) => p.name === 'options' && p.type === 'collection');
		expect(collections.length).toBeGreaterThan(5);
		for (const property of collections) {
			expect(property).toMatchObject({
				displayName: 'Options',
				placeholder: 'Add Option',
				default: {},
			});
			expect(property.description).toBeUndefined();
		}
	});

	it('resolves every dynamic method it references', () => {
		const methods = node.methods as Record<string, Record<string, unknown>>;
		const resolved = { load: 0, mapper: 0, search: 0 };
		for (const property of all) {
			const load = property.typeOptions?.loadOptionsMethod;
			if (load) {
				expect(methods.loadOptions[load]).toBeInstanceOf(Function);
				resolved.load++;
			}
			const mapper = property.typeOptions?.resourceMapper?.resourceMapperMethod;
			if (mapper) {
				expect(methods.resourceMapping[mapper]).toBeInstanceOf(Function);
				resolved.mapper++;
			}
			for (const mode of property.modes ?? []) {
				const search = mode.typeOptions?.searchListMethod;
				if (search) {
					expect(methods.listSearch[search]).toBeInstanceOf(Function);
					resolved.search++;
				}
			}
		}
		expect(resolved.load).toBeGreaterThan(0);
		expect(resolved.mapper).toBeGreaterThan(0);
		expect(resolved.search).toBeGreaterThan(0);
	});
});
