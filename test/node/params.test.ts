/**
 * Bad input gets a NodeOperationError that names the parameter, carries the item index, and sends
 * nothing to the service. Each row is one bad value; the rest of its parameters are valid.
 */
import type { INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator, VALID } from '../support/setup';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { upgradeParams } from './installation/upgradeSupport';

const ctx = useEmulator();

const { create, update, credential } = VALID;
const templates: INodeParameters = {
	resource: 'solution',
	operation: 'getTemplates',
	solutionId: byId('id', 101),
};
const getInstallation: INodeParameters = {
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', 5001),
};

const cases: Array<[string, INodeParameters, RegExp]> = [
	[
		'solution id not a number',
		{ ...templates, solutionId: byId('id', '={{ "abc" }}') },
		/^Solution must be a positive whole number, got "abc"/,
	],
	[
		'solution id empty',
		{ ...templates, solutionId: byId('list', '={{ "" }}') },
		/^Solution is empty: give its ID \(e\.g\. 101\)$/,
	],
	[
		'solution id negative',
		{ ...templates, solutionId: byId('id', '={{ -5 }}') },
		/^Solution must be a positive whole number, got -5/,
	],
	[
		'solution id zero',
		{ ...templates, solutionId: byId('id', '0') },
		/^Solution must be a positive whole number, got "0"/,
	],
	[
		'solution id decimal',
		{ ...templates, solutionId: byId('id', '={{ 1.5 }}') },
		/^Solution must be a positive whole number/,
	],
	[
		'solution id from an object expression',
		{ ...templates, solutionId: byId('id', '={{ { a: 1 } }}') },
		/^Solution must be a positive whole number, got an object/,
	],
	[
		'installation id text',
		{ ...getInstallation, installationId: byId('id', '={{ "x" }}') },
		/^Installation must be a positive whole number/,
	],
	[
		'installation id with letters',
		{ ...getInstallation, installationId: byId('id', '={{ "12abc" }}') },
		/^Installation must be a positive whole number/,
	],
	[
		'installation id from a list expression',
		{ ...getInstallation, installationId: byId('id', '={{ [1, 2] }}') },
		/^Installation must be a positive whole number, got a list/,
	],
	[
		'start: negative id',
		{ resource: 'installation', operation: 'start', installationId: byId('id', '={{ "-1" }}') },
		/^Installation must be/,
	],
	[
		'pause: null id',
		{ resource: 'installation', operation: 'pause', installationId: byId('id', '={{ null }}') },
		/^Installation is empty: give its ID \(e\.g\. 5001\)$/,
	],
	['create: empty title', { ...create, title: '={{ "" }}' }, /^Title is empty/],
	['create: blank title', { ...create, title: '   ' }, /^Title is empty/],
	[
		'create: huge title',
		{ ...create, title: 'x'.repeat(300) },
		/^Title is 300 characters long; at most 255/,
	],
	[
		'create: title from an object',
		{ ...create, title: '={{ { a: 1 } }}' },
		/^Title must be text, got an object/,
	],
	[
		'create: connection settings not JSON',
		{ ...create, credentialData: '{bad json' },
		/^Connection Settings is not valid JSON/,
	],
	[
		'create: connection settings a list',
		{ ...create, credentialData: '[1, 2]' },
		/^Connection Settings must be a JSON object, got a list/,
	],
	[
		'create: connection settings a string',
		{ ...create, credentialData: '"text"' },
		/^Connection Settings must be a JSON object/,
	],
	[
		'create: no templates',
		{ ...create, templateIds: '={{ [] }}' },
		/^Template Names or IDs is empty/,
	],
	[
		'create: template not a number',
		{ ...create, templateIds: ['abc'] },
		/^Template Names or IDs contains "abc"/,
	],
	[
		'create: templates from a text with junk',
		{ ...create, templateIds: '={{ "1011, x" }}' },
		/^Template Names or IDs contains " x"/,
	],
	[
		'create: templates from an object',
		{ ...create, templateIds: '={{ { a: 1 } }}' },
		/^Template Names or IDs must be a list/,
	],
	[
		'create: settings not JSON',
		{ ...create, options: { settings: '{oops' } },
		/^Settings is not valid JSON/,
	],
	[
		'create: settings a list',
		{ ...create, options: { settings: '[1]' } },
		/^Settings must be a JSON object/,
	],
	[
		'create: solution id text',
		{ ...create, solutionId: byId('id', '={{ "abc" }}') },
		/^Solution must be/,
	],
	[
		'connection settings: choices not JSON',
		{ ...templates, operation: 'getConnectionSettings', credentialData: 'nope' },
		/^Values Already Chosen is not valid JSON/,
	],
	[
		'bundle data: empty installation',
		{ resource: 'bundleData', operation: 'getAll', installationId: byId('id', '={{ "" }}') },
		/^Installation is empty: give its ID \(e\.g\. 5001\)$/,
	],
	[
		'bundle data: bundle id text',
		{
			resource: 'bundleData',
			operation: 'getAll',
			installationId: byId('id', 5001),
			scope: 'bundle',
			bundleId: 'abc',
		},
		/^Automation \(Bundle\) must be/,
	],
	[
		'update: empty step',
		{ ...update, stepId: '={{ "" }}' },
		/^Step is empty: give its ID \(e\.g\. 9001\)$/,
	],
	['update: bundle zero', { ...update, bundleId: 0 }, /^Automation \(Bundle\) must be/],
	['update: no field values', { ...update, fieldValues: '{}' }, /^Field Values is empty/],
	[
		'update: field values not JSON',
		{ ...update, fieldValues: 'nope' },
		/^Field Values is not valid JSON/,
	],
	[
		'update: empty field code',
		{ ...update, fieldValues: '{"": 1}' },
		/^Field Values has an empty field code/,
	],
	[
		'update: mapper with nothing set',
		{
			...update,
			fieldValuesMode: 'mapper',
			fieldMapper: { mappingMode: 'defineBelow', value: { subject: null } },
		},
		/^Field Values is empty/,
	],
	[
		'schema: partner zero',
		{ resource: 'credential', operation: 'getSchema', partnerId: 0 },
		/^App ID must be a positive whole number, got 0/,
	],
	[
		'schema: partner negative',
		{ resource: 'credential', operation: 'getSchema', partnerId: -3 },
		/^App ID must be/,
	],
	[
		'credential: empty name',
		{ ...credential, connectionName: '={{ "" }}' },
		/^Connection Name is empty/,
	],
	[
		'credential: fields a list',
		{ ...credential, fields: '[]' },
		/^Connection Fields must be a JSON object, got a list/,
	],
	[
		'solutions: limit zero',
		{ resource: 'solution', operation: 'getAll', limit: 0 },
		/^Limit must be a whole number of at least 1/,
	],
	[
		'request options: too many items in flight',
		{ ...templates, requestOptions: { concurrency: 65 } },
		/^Request Options → Items in Flight must be a number from 0 to 64/,
	],
	[
		'installations: solution filter text',
		{ resource: 'installation', operation: 'getAll', filters: { solutionId: byId('id', 'abc') } },
		/^Filters → Solution must be a positive whole number, got "abc"/,
	],
	[
		'installations: solution filter from an object',
		{
			resource: 'installation',
			operation: 'getAll',
			filters: { solutionId: byId('id', '={{ { a: 1 } }}') },
		},
		/^Filters → Solution must be a positive whole number, got an object/,
	],
	[
		'installations: title filter from an object',
		{ resource: 'installation', operation: 'getAll', filters: { title: '={{ { a: 1 } }}' } },
		/^Filters → Title Contains must be text, got an object/,
	],
	[
		'installations: unknown status filter',
		{ resource: 'installation', operation: 'getAll', filters: { status: '={{ "on" }}' } },
		/^Filters → Status must be "active", "paused" or "any", got "on"/,
	],
	[
		'installations: limit given as text by an expression',
		{ resource: 'installation', operation: 'getAll', limit: '={{ "5" }}' },
		/^Limit must be a whole number of at least 1, got "5"/,
	],
	[
		'request options: negative timeout',
		{ ...templates, requestOptions: { timeout: -1 } },
		/^Request Options → Timeout \(Seconds\) must be/,
	],
	[
		'upgrade: Current Solution not a number',
		{ ...upgradeParams(), fromSolutionId: byId('id', '={{ "abc" }}') },
		/^Current Solution must be a positive whole number, got "abc"/,
	],
	[
		'upgrade: the same solution both sides',
		{ ...upgradeParams(), solutionId: byId('id', 101) },
		/^Current Solution and Solution are both 101/,
	],
	[
		'upgrade: Direction unknown',
		{ ...upgradeParams(), direction: '={{ "sideways" }}' },
		/^Direction must be "upgrade" or "rollBack", got "sideways"/,
	],
	[
		'upgrade: Renamed Fields not JSON',
		{ ...upgradeParams(), fieldRenames: '{subject: mailSubject}' },
		/^Renamed Fields \(JSON\) is not valid JSON/,
	],
	[
		'upgrade: two fields renamed to one',
		{ ...upgradeParams(), fieldRenames: '{"subject": "x", "listId": "x"}' },
		/^Renamed Fields \(JSON\) \(item 0\): two fields are renamed to "x"/,
	],
];

describe('bad input: a clear error and no request', () => {
	it('has at least 30 cases', () => expect(cases.length).toBeGreaterThanOrEqual(30));

	it.each(cases)('%s', async (_name, parameters, message) => {
		const run = await runNode(ctx.emu, parameters);
		expect(run.error?.message).toMatch(message);
		expect(run.error?.name).toBe('NodeOperationError');
		expect((run.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(run.calls).toEqual([]);
	});

	it('literal values n8n can check itself are refused by n8n before the node runs', async () => {
		await expect(runNode(ctx.emu, { ...create, title: '' })).rejects.toThrow(/workflow has issues/);
		expect(ctx.emu.requests).toEqual([]);
	});

	it('Title length: 255 characters are accepted and installed, 256 are refused before any request', async () => {
		const longest = 'x'.repeat(255);
		const accepted = await runNode(ctx.emu, { ...create, title: longest });
		expect(accepted.error).toBeUndefined();
		expect(accepted.json).toHaveLength(1);
		expect(accepted.json[0]).toMatchObject({ title: longest });
		expect(accepted.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
		expect([...ctx.emu.state.installations.values()].map((i) => i.title)).toContain(longest);

		const refused = await runNode(ctx.emu, { ...create, title: longest + 'y' });
		expect(refused.error?.message).toBe('Title is 256 characters long; at most 255 are allowed');
		expect(refused.error?.name).toBe('NodeOperationError');
		expect(refused.calls).toEqual([]);
	});

	it('names the item: the second item fails, the first is untouched by the error', async () => {
		const run = await runNode(
			ctx.emu,
			{ ...getInstallation, installationId: byId('id', '={{ $json.id }}') },
			{ inputItems: [{ id: 5001 }, { id: 'oops' }], continueOnFail: true },
		);
		expect(run.json[0]).toMatchObject({ id: 5001 });
		expect(run.json[1].error).toMatch(/^Installation must be a positive whole number, got "oops"/);
		expect(run.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('ID checks name the field and give an example of its own kind (issue 33, point 11)', () => {
	it.each([
		['Solution', { ...templates, solutionId: byId('id', '={{ "Leads" }}') }, 'e.g. 101'],
		[
			'Installation',
			{ ...getInstallation, installationId: byId('id', '={{ "Globex" }}') },
			'e.g. 5001',
		],
		[
			'App ID',
			{ resource: 'credential', operation: 'getSchema', partnerId: 'HubSpot' },
			'e.g. 201',
		],
	])('%s', async (label, parameters, example) => {
		const run = await runNode(ctx.emu, parameters as INodeParameters);
		expect(run.error?.message).toMatch(
			new RegExp(
				`^${label} must be a positive whole number, got "[^"]+": give its ID \\(${example}\\), not its name$`,
			),
		);
		expect(run.error?.description).toContain(`Set "${label}" to its ID (${example}): `);
		expect(run.calls).toEqual([]);
	});

	it("App ID's hint says where a partner finds one (Albato's API lists no apps)", async () => {
		const run = await runNode(ctx.emu, {
			resource: 'credential',
			operation: 'getSchema',
			partnerId: '={{ "" }}',
		});
		expect(run.error?.message).toBe('App ID is empty: give its ID (e.g. 201)');
		expect(run.error?.description).toMatch(/lists no apps: ask your Albato account manager/);
	});

	it("the locators' By ID checks name their field once, with their own example", () => {
		const { properties } = new AlbatoSolutions().description;
		const messages = new Set(
			properties
				.filter((p) => p.type === 'resourceLocator')
				.flatMap((p) => p.modes ?? [])
				.flatMap((mode) => mode.validation ?? [])
				.map(
					(rule) =>
						(rule as unknown as { properties: { errorMessage: string } }).properties.errorMessage,
				),
		);
		expect([...messages].sort()).toEqual([
			'Installation ID is a whole number, e.g. 5001',
			'Solution ID is a whole number, e.g. 101',
		]);
	});
});
