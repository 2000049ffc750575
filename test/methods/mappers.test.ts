/**
 * The resource mappers (Connection Settings, Field Values, partner Fields) through n8n-core's
 * LoadOptionsContext against the emulator.
 */
import type {
	INodeParameters,
	ResourceMapperField,
	ResourceMapperFields,
	ResourceMapperValue,
} from 'n8n-workflow';

import { FIXTURE_IDS } from '../../emulator/fixtures';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { byId, runNode } from '../support/setup';
import { PARENTS, usePickers } from '../support/methodsSetup';

const pickers = usePickers();
const fields = (method: string, parameters: object) =>
	pickers.call<ResourceMapperFields>('resourceMapping', method, parameters as never);

/**
 * A resource mapper's value as the editor saves it: the values picked, and the fields they were
 * picked from.
 */
const mapperValue = (
	value: ResourceMapperValue['value'],
	schema: ResourceMapperField[],
): ResourceMapperValue => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema,
	attemptToConvertTypes: false,
	convertFieldsToString: false,
});

const summary = (list: ResourceMapperField[]) =>
	list.map((field) => [
		field.id,
		field.displayName,
		field.type,
		field.options?.map((option) => option.value),
	]);

describe('getConnectionSettingsFields (Installation → Create, Connection Settings mapper)', () => {
	const refresh = (chosen: ResourceMapperValue['value']) =>
		fields('getConnectionSettingsFields', {
			...PARENTS.getConnectionSettingsFields,
			connectionSettings: { mappingMode: 'defineBelow', value: chosen },
		});

	// After the one request that walks the choices, each value not chosen yet is
	// probed once (what it opens), so the walk's request is the first of each refresh.
	it('reveals the three nesting levels of solution 101 one refresh at a time: one walk request each, the choices as credentialData', async () => {
		const first = await refresh({});
		expect(summary(first.result.fields)).toEqual([
			['crm', 'CRM', 'options', ['hubspot', 'pipedrive']],
			['mailer', 'Mailer', 'options', ['mailchimp', 'sendpulse']],
		]);
		expect(first.result.fields[0].options).toEqual([
			{ name: 'HubSpot (opens Pipeline)', value: 'hubspot' },
			{ name: 'Pipedrive (opens Filter)', value: 'pipedrive' },
		]);
		expect(
			first.result.fields.every((field) => field.required && field.display && !field.defaultMatch),
		).toBe(true);

		const second = await refresh({ crm: 'hubspot', mailer: null });
		expect(summary(second.result.fields)).toEqual([
			['crm', 'CRM', 'options', ['hubspot', 'pipedrive']],
			['hubspotPipeline', '↳ Pipeline', 'options', ['sales', 'support']],
			['mailer', 'Mailer', 'options', ['mailchimp', 'sendpulse']],
		]);

		const third = await refresh({ crm: 'hubspot', hubspotPipeline: 'sales', mailer: '' });
		expect(summary(third.result.fields)).toEqual([
			['crm', 'CRM', 'options', ['hubspot', 'pipedrive']],
			['hubspotPipeline', '↳ Pipeline', 'options', ['sales', 'support']],
			['hubspotStage', '↳ ↳ Stage', 'options', ['new', 'won']],
			['mailer', 'Mailer', 'options', ['mailchimp', 'sendpulse']],
		]);

		expect([first.calls[0], second.calls[0], third.calls[0]]).toEqual([
			'GET /solution/101/credentialists',
			'GET /solution/101/credentialists?credentialData[crm]=hubspot',
			'GET /solution/101/credentialists?credentialData[crm]=hubspot&credentialData[hubspotPipeline]=sales',
		]);
		expect(third.requests[0].query).toEqual({
			credentialData: { crm: 'hubspot', hubspotPipeline: 'sales' },
		});

		// The last level chosen: a refresh shows the same fields, still with one request.
		const done = await refresh({
			crm: 'hubspot',
			hubspotPipeline: 'sales',
			hubspotStage: 'won',
			mailer: 'sendpulse',
		});
		expect(done.result.fields.map((field) => field.id)).toEqual([
			'crm',
			'hubspotPipeline',
			'hubspotStage',
			'mailer',
		]);
		expect(done.calls[0]).toBe(
			'GET /solution/101/credentialists?credentialData[crm]=hubspot&credentialData[hubspotPipeline]=sales&credentialData[hubspotStage]=won&credentialData[mailer]=sendpulse',
		);
	});

	it('follows a changed choice: steps nested under the old value disappear', async () => {
		// The editor still holds hubspotPipeline from the HubSpot branch.
		const { result, calls } = await refresh({ crm: 'pipedrive', hubspotPipeline: 'sales' });
		expect(result.fields.map((field) => field.id)).toEqual(['crm', 'pipedriveFilter', 'mailer']);
		expect(calls[0]).toBe(
			'GET /solution/101/credentialists?credentialData[crm]=pipedrive&credentialData[hubspotPipeline]=sales',
		);
	});

	it('when the service refuses a choice, shows the levels the valid choices reach', async () => {
		const { result, calls } = await refresh({ crm: 'hubspot', hubspotPipeline: 'marketing' });
		expect(result.fields.map((field) => field.id)).toEqual(['crm', 'hubspotPipeline', 'mailer']);
		expect(calls.slice(0, 3)).toEqual([
			'GET /solution/101/credentialists?credentialData[crm]=hubspot&credentialData[hubspotPipeline]=marketing',
			'GET /solution/101/credentialists',
			'GET /solution/101/credentialists?credentialData[crm]=hubspot',
		]);
	});

	it('shows a flat solution in one walk request, then one probe per value (none opens a step)', async () => {
		const { result, calls } = await fields('getConnectionSettingsFields', {
			...PARENTS.getConnectionSettingsFields,
			solutionId: byId('id', 102),
		});
		expect(summary(result.fields)).toEqual([
			['shop', 'Shop', 'options', ['shopify', 'woocommerce']],
			['sheetsAccount', 'Sheets account', 'options', ['primary', 'secondary']],
		]);
		expect(calls[0]).toBe('GET /solution/102/credentialists');
		expect(calls).toHaveLength(5);
		expect(result.fields.flatMap((field) => field.options!.map((o) => o.name))).toEqual([
			'Shopify',
			'WooCommerce',
			'Primary',
			'Secondary',
		]);
	});

	it('returns no fields and sends no request while no solution is chosen', async () => {
		const { result, calls } = await fields('getConnectionSettingsFields', {
			...PARENTS.getConnectionSettingsFields,
			solutionId: { __rl: true, mode: 'list', value: '' },
		});
		expect(result.fields).toEqual([]);
		expect(calls).toEqual([]);
	});

	it('names the solution the service does not know', async () => {
		const { error } = await pickers.failure('resourceMapping', 'getConnectionSettingsFields', {
			...PARENTS.getConnectionSettingsFields,
			solutionId: byId('id', 104),
		});
		expect(error.message).toMatch(/^Could not load the connection settings: /);
		expect(error.httpCode ?? null).toBeNull(); // the status is in the description
		expect(error.description).toMatch(/GET \/solution\/104\/credentialists → 404/);
	});

	it('execution: the values picked in the mapper are sent as credentialData, nested steps included', async () => {
		const chosen = {
			crm: 'hubspot',
			hubspotPipeline: 'sales',
			hubspotStage: 'won',
			mailer: 'sendpulse',
		};
		const { result } = await refresh(chosen);
		const run = await runNode(pickers.emu, {
			resource: 'installation',
			operation: 'create',
			solutionId: byId('list', 101),
			title: 'Picked in the mapper',
			connectionSettingsMode: 'mapper',
			connectionSettings: mapperValue(chosen, result.fields),
			templateIds: [1011],
		});
		expect(run.error).toBeUndefined();
		expect(run.calls.at(-1)).toBe('POST /solution/101/installation');
		expect(pickers.emu.requests.at(-1)!.body).toEqual({
			credentialData: chosen,
			templateIds: [1011],
			title: 'Picked in the mapper',
		});
		expect(run.json[0]).toMatchObject({ id: FIXTURE_IDS.nextInstallation });
	});
});

describe('Connection Settings: marks, connections and a missing nested step (issue 33, point 8)', () => {
	const refresh = (chosen: ResourceMapperValue['value']) =>
		fields('getConnectionSettingsFields', {
			...PARENTS.getConnectionSettingsFields,
			connectionSettings: { mappingMode: 'defineBelow', value: chosen },
		});

	it('a connection the end user has (e.g. made by link) is offered as "Name (connection id)"', async () => {
		pickers.emu.state.credentials.set(8001, {
			id: 8001,
			userId: 'user-1',
			partnerId: 201,
			title: 'Alpha CRM',
			values: {},
			dateCreated: '2030-01-01 00:00:00',
		});
		const { result } = await refresh({});
		expect(result.fields[0].options).toContainEqual({
			name: 'Alpha CRM (connection 8001)',
			value: '8001',
		});
	});

	it('at most 12 probes per refresh, four at a time; a failed probe marks nothing', async () => {
		pickers.emu.faults.add({
			method: 'GET',
			path: '/solution/101/credentialists',
			query: /credentialData/,
			status: 422,
			times: 50,
		});
		const { result, calls } = await refresh({});
		expect(calls.length).toBeLessThanOrEqual(13);
		expect(result.fields[0].options!.map((option) => option.name)).toEqual([
			'HubSpot',
			'Pipedrive',
		]);
	});

	it('execution: a choice that opens steps the mapper never showed fails before any request', async () => {
		const { result } = await refresh({});
		const run = await runNode(pickers.emu, {
			resource: 'installation',
			operation: 'create',
			solutionId: byId('list', 101),
			title: 'Not refreshed',
			connectionSettingsMode: 'mapper',
			connectionSettings: mapperValue({ crm: 'hubspot', mailer: 'sendpulse' }, result.fields),
			templateIds: [1011],
		});
		expect(run.error?.message).toBe(
			'Connection Settings: CRM is "HubSpot", which opens further steps (Pipeline) that are not filled in',
		);
		expect(run.error?.description).toMatch(/^Nothing was sent\. .*Refresh Step List/);
		expect(run.calls).toEqual([]);
	});

	it('the notice shows once a solution is picked, and speaks of connections made by link', () => {
		const notice = new AlbatoSolutions().description.properties.find(
			(property) => property.name === 'connectionSettingsNotice',
		)!;
		expect(notice.displayOptions?.show?.solutionId).toEqual([{ _cnd: { exists: true } }]);
		expect(notice.displayName).toMatch(/\(opens …\)/);
		expect(notice.displayName).toMatch(/made by link.*\(connection 8001\)/);
	});
});

describe('getFieldValueFields (Bundle Data → Update, Field Values mapper)', () => {
	it("offers the step's fields: keyed by field code, labelled by the service, typed and prefilled from the current values", async () => {
		const { result, calls } = await fields('getFieldValueFields', PARENTS.getFieldValueFields);
		expect(result.fields).toEqual([
			{
				id: 'subject',
				displayName: 'Subject (now: Welcome aboard)',
				type: 'string',
				defaultValue: 'Welcome aboard',
				required: false,
				display: true,
				defaultMatch: false,
			},
			{
				id: 'listId',
				displayName: 'Mailing list (now: {%12:345%})',
				type: 'string',
				defaultValue: '{%12:345%}',
				required: false,
				display: true,
				defaultMatch: false,
			},
			{
				id: 'cf__4c2d9e8f0a1b4c3d',
				displayName: 'Delay, minutes (now: 15)',
				type: 'number',
				defaultValue: 15,
				required: false,
				display: true,
				defaultMatch: false,
			},
			{
				id: 'doubleOptIn',
				displayName: 'Double opt-in (now: false)',
				type: 'boolean',
				defaultValue: false,
				required: false,
				display: true,
				defaultMatch: false,
			},
		]);
		expect(calls).toEqual(['GET /bundle/data?filter[bundleId]=7001']);
	});

	it('shows a long current value shortened, and an empty one as empty', async () => {
		const field = pickers.emu.state.bundleData
			.get(9002)!
			.fields.find((entry) => entry.name === 'subject')!;
		field.value = 'A subject line that is much longer than forty characters';
		const long = await fields('getFieldValueFields', PARENTS.getFieldValueFields);
		expect(long.result.fields[0].displayName).toBe(
			'Subject (now: A subject line that is much longer th…)',
		);
		field.value = '';
		const empty = await fields('getFieldValueFields', PARENTS.getFieldValueFields);
		expect(empty.result.fields[0].displayName).toBe('Subject (now: empty)');
	});

	it.each([
		['no automation', { bundleId: '' }],
		['no step', { stepId: '' }],
	])('returns no fields and sends no request with %s chosen', async (_case, overrides) => {
		const { result, calls } = await fields('getFieldValueFields', {
			...PARENTS.getFieldValueFields,
			...overrides,
		});
		expect(result.fields).toEqual([]);
		expect(calls).toEqual([]);
	});

	it('says so when the step is not part of the automation', async () => {
		const { result } = await fields('getFieldValueFields', {
			...PARENTS.getFieldValueFields,
			stepId: 9005,
		});
		expect(result).toEqual({
			fields: [],
			emptyFieldsNotice: 'Step 9005 is not part of automation 7001: pick the step again',
		});
	});

	it('execution: the values picked reach PUT /bundle/data with their codes and types', async () => {
		const parents = {
			installationId: byId('list', FIXTURE_IDS.pausedInstallation),
			bundleId: 7003,
			stepId: 9006,
		};
		const { result } = await fields('getFieldValueFields', {
			...PARENTS.getFieldValueFields,
			...parents,
		});
		expect(result.fields.map((field) => field.id)).toEqual([
			'subject',
			'listId',
			'cf__4c2d9e8f0a1b4c3d',
			'doubleOptIn',
		]);
		const picked = {
			subject: 'Hello from the mapper',
			cf__4c2d9e8f0a1b4c3d: 30,
			doubleOptIn: true,
		};
		const run = await runNode(pickers.emu, {
			resource: 'bundleData',
			operation: 'update',
			...parents,
			fieldValuesMode: 'mapper',
			fieldMapper: mapperValue(picked, result.fields),
		} as INodeParameters);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['PUT /bundle/data/9006']);
		expect(pickers.emu.requests.at(-1)!.body).toEqual({ data: picked });
		expect(
			pickers.emu.state.bundleData
				.get(9006)!
				.fields.find((entry) => entry.name === 'cf__4c2d9e8f0a1b4c3d')!.value,
		).toBe(30);
	});
});

describe('getPartnerFields (Credential → Create, Fields mapper)', () => {
	it("builds the fields from the partner's schema: secrets marked, choices from allowedValues, required kept", async () => {
		const { result, calls } = await fields('getPartnerFields', PARENTS.getPartnerFields);
		expect(result.fields).toEqual([
			{
				id: 'apiUrl',
				displayName: 'API URL',
				type: 'string',
				required: true,
				display: true,
				defaultMatch: false,
			},
			{
				id: 'apiKey',
				displayName: 'API key (secret)',
				type: 'string',
				required: true,
				display: true,
				defaultMatch: false,
			},
			{
				id: 'region',
				displayName: 'Region',
				type: 'options',
				options: [
					{ name: 'Europe', value: 'eu' },
					{ name: 'United States', value: 'us' },
				],
				required: true,
				display: true,
				defaultMatch: false,
			},
		]);
		expect(calls).toEqual(['GET /credentials/201/meta']);
	});

	it('keeps optional fields optional', async () => {
		const { result } = await fields('getPartnerFields', {
			...PARENTS.getPartnerFields,
			partnerId: 202,
		});
		expect(result.fields.map((field) => [field.id, field.displayName, field.required])).toEqual([
			['token', 'Bot token (secret)', true],
			['account', 'Account', false],
		]);
	});

	it('returns no fields and sends no request while no partner is given', async () => {
		const { result, calls } = await fields('getPartnerFields', {
			...PARENTS.getPartnerFields,
			partnerId: 0,
		});
		expect(result.fields).toEqual([]);
		expect(calls).toEqual([]);
	});

	it('names the partner the service does not know', async () => {
		const { error, calls } = await pickers.failure('resourceMapping', 'getPartnerFields', {
			...PARENTS.getPartnerFields,
			partnerId: 299,
		});
		expect(error.message).toMatch(/^Could not load the partner's fields: /);
		expect(error.httpCode ?? null).toBeNull(); // the status is in the description
		expect(calls).toEqual(['GET /credentials/299/meta']);
	});

	it('execution: the values picked are the body of POST /credentials/{partnerId}, with the connection name', async () => {
		const { result } = await fields('getPartnerFields', PARENTS.getPartnerFields);
		const picked = {
			apiUrl: 'https://crm.initech.example',
			apiKey: 'sk_live_picked_0123456789',
			region: 'us',
		};
		const run = await runNode(pickers.emu, {
			resource: 'credential',
			operation: 'create',
			partnerId: 201,
			connectionName: 'Initech CRM',
			fieldsMode: 'mapper',
			connectionFieldMapper: mapperValue(picked, result.fields),
		} as INodeParameters);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['GET /credentials/201/meta', 'POST /credentials/201']);
		expect(pickers.emu.requests.at(-1)!.body).toEqual({ ...picked, title: 'Initech CRM' });
		expect(JSON.stringify(run.json)).not.toContain('0123456789');
	});
});
