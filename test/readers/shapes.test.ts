/** The shape readers alone: each variant the public material allows gives one normal form. */
import {
	bundleRecordsOf,
	fieldsOf,
	idOf,
	installationOf,
	installationsOf,
	positiveIdOf,
	sameId,
	statusOf,
	successFlagOf,
	unwrapEnvelope,
} from '../../nodes/shared/readers/shapes';
import { forTests, settingStepsOf } from '../../nodes/shared/readers/settingSteps';

const { optionsOf } = forTests;

describe('successFlagOf / unwrapEnvelope', () => {
	it.each([
		[true, true],
		['true', true],
		[' TRUE ', true],
		[1, true],
		['1', true],
		[false, false],
		['false', false],
		[0, false],
		['0', false],
		['yes', undefined],
		[2, undefined],
		[null, undefined],
		[undefined, undefined],
	])('success %p → %p', (flag, expected) => {
		expect(successFlagOf({ success: flag, data: { id: 1 } })).toBe(expected);
	});

	it('unwraps an envelope whatever its flag looks like; anything else is the data itself', () => {
		expect(unwrapEnvelope({ success: 'true', data: { id: 1 } })).toEqual({ id: 1 });
		expect(unwrapEnvelope({ success: 1, data: [] })).toEqual([]);
		expect(unwrapEnvelope({ success: 'maybe', data: [] })).toEqual({ success: 'maybe', data: [] });
		expect(unwrapEnvelope({ id: 1, data: [] })).toEqual({ id: 1, data: [] });
		expect(unwrapEnvelope([{ id: 1 }])).toEqual([{ id: 1 }]);
		expect(successFlagOf([{ success: false }])).toBeUndefined();
	});
});

describe('idOf / sameId', () => {
	it.each([
		[5001, 5001],
		['5001', 5001],
		[' 5001 ', 5001],
		['abc', 'abc'],
		['', undefined],
		[null, undefined],
		[undefined, undefined],
		[Number.NaN, undefined],
		['99999999999999999999', '99999999999999999999'],
	])('%p → %p', (raw, expected) => expect(idOf(raw)).toEqual(expected));

	it('compares across types, and nothing equals an absent id', () => {
		expect(sameId('5001', 5001)).toBe(true);
		expect(sameId(5001, 5002)).toBe(false);
		expect(sameId(undefined, undefined)).toBe(false);
	});
});

describe('positiveIdOf (ids a user gives)', () => {
	it.each([
		[5001, 5001],
		[' 5001 ', 5001],
		['007', 7],
		[0, undefined],
		['0', undefined],
		[-3, undefined],
		[5.5, undefined],
		['5.5', undefined],
		['Acme', undefined],
		['99999999999999999999', undefined],
		[true, undefined],
		[null, undefined],
	])('%p → %p', (raw, expected) => expect(positiveIdOf(raw)).toEqual(expected));
});

describe('statusOf', () => {
	it.each([
		[1, 1],
		[0, 0],
		['1', 1],
		['0', 0],
		['active', 1],
		['Paused', 0],
		[true, 1],
		[false, 0],
		[undefined, undefined],
		['', undefined],
		['weird', undefined],
	])('%p → %p', (status, expected) => expect(statusOf({ status } as never)).toBe(expected));
});

describe('installationOf / installationsOf', () => {
	const documented = { id: 5001, appId: 101, title: 'A', status: 1, extra: { x: 1 } };
	it.each([
		['documented', documented],
		[
			'string ids and status',
			{ id: '5001', appId: '101', title: 'A', status: '1', extra: { x: 1 } },
		],
		['word status', { ...documented, status: 'active' }],
		['wrapped', { installation: documented }],
	])('%s', (_name, raw) => expect(installationOf(raw)).toEqual(documented));

	it('lists bare, wrapped or keyed by id', () => {
		const expected = [
			{ id: 5001, title: 'A' },
			{ id: 5002, title: 'B' },
		];
		expect(
			installationsOf([
				{ id: '5001', title: 'A' },
				{ id: 5002, title: 'B' },
			]),
		).toEqual(expected);
		expect(
			installationsOf({
				items: [
					{ id: 5001, title: 'A' },
					{ id: '5002', title: 'B' },
				],
			}),
		).toEqual(expected);
		expect(installationsOf({ 5001: { title: 'A' }, 5002: { title: 'B' } })).toEqual(expected);
	});
});

describe('credentialist values and nesting', () => {
	const expected = [
		{ value: 'hubspot', title: 'HubSpot' },
		{ value: 'pipedrive', title: 'Pipedrive' },
	];
	it.each([
		[
			'{value,title}',
			[
				{ value: 'hubspot', title: 'HubSpot' },
				{ value: 'pipedrive', title: 'Pipedrive' },
			],
		],
		[
			'{id,title}',
			[
				{ id: 'hubspot', title: 'HubSpot' },
				{ id: 'pipedrive', title: 'Pipedrive' },
			],
		],
		[
			'{id,value}',
			[
				{ id: 'hubspot', value: 'HubSpot' },
				{ id: 'pipedrive', value: 'Pipedrive' },
			],
		],
		[
			'{id,value,title}: value is the documented key',
			[
				{ id: 1, value: 'hubspot', title: 'HubSpot' },
				{ id: 2, value: 'pipedrive', title: 'Pipedrive' },
			],
		],
		['{id: title} map', { hubspot: 'HubSpot', pipedrive: 'Pipedrive' }],
	])('%s', (_name, raw) =>
		expect(optionsOf(raw).map(({ value, title }) => ({ value, title }))).toEqual(expected),
	);

	it('plain strings keep the value as the title', () => {
		expect(optionsOf(['a', 'b'])).toEqual([
			{ value: 'a', title: 'a' },
			{ value: 'b', title: 'b' },
		]);
	});

	it('nested under the step or under the chosen value give the same tree, three levels deep', () => {
		const stage = { id: 'stage', title: 'Stage', values: [{ value: 'won', title: 'Won' }] };
		const underStep = [
			{
				id: 'crm',
				title: 'CRM',
				values: [
					{ value: 'hubspot', title: 'HubSpot' },
					{ value: 'pipedrive', title: 'Pipedrive' },
				],
				nested: [
					{
						id: 'pipeline',
						title: 'Pipeline',
						values: [{ value: 'sales', title: 'Sales' }],
						nested: [{ ...stage, nested: [] }],
					},
				],
			},
		];
		const underValue = [
			{
				id: 'crm',
				title: 'CRM',
				values: [
					{
						value: 'hubspot',
						title: 'HubSpot',
						nested: [
							{
								id: 'pipeline',
								title: 'Pipeline',
								values: [{ value: 'sales', title: 'Sales', nested: [stage] }],
							},
						],
					},
					{
						value: 'pipedrive',
						title: 'Pipedrive',
						nested: [{ id: 'other', title: 'Other', values: [] }],
					},
				],
			},
		];
		const choices = { crm: 'hubspot', pipeline: 'sales' };
		expect(settingStepsOf(underValue, choices)).toEqual(settingStepsOf(underStep, choices));
		expect(JSON.stringify(settingStepsOf(underValue, choices))).toContain('"id":"stage"');
		// Nothing chosen: no nested steps in either layout.
		expect(settingStepsOf(underValue, {})[0].nested).toEqual([]);
	});
});

describe('bundle data and fields', () => {
	const documented = [
		{ id: 9001, bundleId: 7001, data: [{ name: 'subject', label: 'Subject', value: 'Hi' }] },
	];
	it.each([
		[
			'list',
			[{ id: 9001, bundleId: 7001, data: [{ name: 'subject', label: 'Subject', value: 'Hi' }] }],
		],
		[
			'map keyed by step id, string ids',
			{ 9001: { bundleId: '7001', data: [{ name: 'subject', label: 'Subject', value: 'Hi' }] } },
		],
		[
			'wrapped',
			{
				items: [
					{
						id: '9001',
						bundleId: 7001,
						data: [{ name: 'subject', label: 'Subject', value: 'Hi' }],
					},
				],
			},
		],
	])('%s', (_name, raw) => expect(bundleRecordsOf(raw)).toEqual(documented));

	it('fields as a code → value map: the code stands in for the label', () => {
		expect(fieldsOf({ subject: 'Hi', count: 3 })).toEqual([
			{ name: 'subject', label: 'subject', value: 'Hi' },
			{ name: 'count', label: 'count', value: 3 },
		]);
	});
});
