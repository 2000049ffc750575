/**
 * Bundle Data → Update's output names each field by the label it was picked by, and keeps the codes
 * (expressions may already read `updated.<code>`). The labels come from the mapper the user filled.
 */
import type { ResourceMapperFields, ResourceMapperValue } from 'n8n-workflow';

import { FIXTURE_IDS } from '../../../emulator/fixtures';
import { labelOfMapperField, mapperFieldName } from '../../../nodes/shared/readers/fieldLabel';
import { updatedOutput } from '../../../nodes/AlbatoSolutions/actions/pausedUpdate/updateGroup';
import { byId, runNode } from '../../support/setup';
import { PARENTS, usePickers } from '../../support/methodsSetup';

const pickers = usePickers();
const parents = {
	installationId: byId('list', FIXTURE_IDS.pausedInstallation),
	bundleId: 7003,
	stepId: 9006,
};

describe('Bundle Data → Update output', () => {
	it('mapper: updatedFields gives label, code and value; updated stays keyed by code', async () => {
		const { result } = await pickers.call<ResourceMapperFields>(
			'resourceMapping',
			'getFieldValueFields',
			{ ...PARENTS.getFieldValueFields, ...parents } as never,
		);
		const picked = { subject: 'Hi', cf__4c2d9e8f0a1b4c3d: 30 };
		const fieldMapper: ResourceMapperValue = {
			mappingMode: 'defineBelow',
			value: picked,
			matchingColumns: [],
			schema: result.fields,
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		};
		const run = await runNode(pickers.emu, {
			resource: 'bundleData',
			operation: 'update',
			...parents,
			fieldValuesMode: 'mapper',
			fieldMapper,
		} as never);
		expect(run.error).toBeUndefined();
		expect(run.json[0].updated).toEqual(picked);
		expect(run.json[0].updatedFields).toEqual([
			{ label: 'Subject', code: 'subject', value: 'Hi' },
			{ label: 'Delay, minutes', code: 'cf__4c2d9e8f0a1b4c3d', value: 30 },
		]);
	});

	it('JSON: codes only, labels null (no extra request to look them up)', async () => {
		const run = await runNode(pickers.emu, {
			resource: 'bundleData',
			operation: 'update',
			...parents,
			fieldValuesMode: 'json',
			fieldValues: '{"subject": "Hi"}',
		});
		expect(run.json[0].updatedFields).toEqual([{ label: null, code: 'subject', value: 'Hi' }]);
		expect(run.calls).toEqual(['PUT /bundle/data/9006']);
	});
});

describe('field labels (pure)', () => {
	it.each([
		['Subject', 'Welcome aboard'],
		['Delay (minutes)', '15'],
		['Note', 'x (now: y)'],
	])('%s round-trips through the mapper name', (label, now) => {
		expect(labelOfMapperField(mapperFieldName(label, now))).toBe(label);
	});

	it('updatedOutput keeps data as sent and orders updatedFields like it', () => {
		expect(updatedOutput({ b: 1, a: 2 }, { a: 'A' })).toEqual({
			updated: { b: 1, a: 2 },
			updatedFields: [
				{ label: null, code: 'b', value: 1 },
				{ label: 'A', code: 'a', value: 2 },
			],
		});
	});
});
