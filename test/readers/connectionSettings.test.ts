/**
 * The connection-settings readers: the steps tree, the choices query, and choices resolved level by
 * level.
 */
import { choicesQuery, resolveChoices } from '../../nodes/shared/readers/connectionSettings';
import { settingStepsOf } from '../../nodes/shared/readers/settingSteps';

const tree = settingStepsOf([
	{
		id: 'crm',
		title: 'CRM',
		values: [
			{ value: 'hubspot', title: 'HubSpot' },
			{ value: 'pipedrive', title: 'Pipedrive' },
		],
		nested: [{ id: 'account', title: 'Account', values: ['a1', 'a2'], nested: [] }],
	},
	{ id: 'region', title: 'Region', values: [{ value: 7, title: 'EU' }], nested: [] },
]);

describe('settingStepsOf', () => {
	it('accepts values as objects or plain strings, and wrapped lists', () => {
		expect(tree[0].values[0]).toEqual({ value: 'hubspot', title: 'HubSpot' });
		expect(tree[0].nested[0].values).toEqual([
			{ value: 'a1', title: 'a1' },
			{ value: 'a2', title: 'a2' },
		]);
		expect(settingStepsOf({ items: [{ id: 5, values: [] }] })[0].id).toBe('5');
		expect(settingStepsOf({ steps: [{ id: 'x', values: [] }] })[0].id).toBe('x');
	});
});

describe('resolveChoices', () => {
	it('maps every reached step to the service value and reports nothing missing when complete', () => {
		const result = resolveChoices(tree, { crm: 'hubspot', account: 'a2', region: '7' });
		expect(result.credentialData).toEqual({ crm: 'hubspot', account: 'a2', region: 7 });
		expect(result.missing).toEqual([]);
		expect(result.invalid).toEqual([]);
		expect(result.unknown).toEqual([]);
	});

	it('names missing steps, values not offered and unknown keys', () => {
		const result = resolveChoices(tree, { crm: 'salesforce', nope: 1 });
		expect(result.invalid.map((entry) => entry.step.id)).toEqual(['crm']);
		expect(result.missing.map((step) => step.id)).toEqual(['region']);
		expect(result.unknown).toEqual(['nope']);
	});

	it('auto-selects steps that offer exactly one value only when asked', () => {
		expect(
			resolveChoices(tree, { crm: 'hubspot', account: 'a1' }).missing.map((s) => s.id),
		).toEqual(['region']);
		const auto = resolveChoices(
			tree,
			{ crm: 'hubspot', account: 'a1' },
			{ autoSelectSingle: true },
		);
		expect(auto.autoSelected).toEqual(['region']);
		expect(auto.credentialData.region).toBe(7);
	});

	it('builds the query parameters the service reads', () => {
		expect(choicesQuery({ crm: 'hubspot', empty: '', account: 3 })).toEqual({
			'credentialData[crm]': 'hubspot',
			'credentialData[account]': '3',
		});
	});
});
