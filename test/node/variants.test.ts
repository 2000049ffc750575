/**
 * Compatibility with the real service: every affected operation runs through n8n-core against the
 * emulator in each shape variant (and each error style), and must give the SAME output as under the
 * default (documented) shapes. Where a variant carries less information (no labels, no titles, no
 * status), the table names exactly what is left out of the comparison, and nothing else.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { ERROR_STYLES, type Variants } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { VARIANT_CHOICES } from '../../emulator/render';
import { byId, runNode, useEmulator, VALID } from '../support/setup';

const ctx = useEmulator();

/** What a variant cannot carry, so it is left out of the comparison. */
type Gap = 'valueTitles' | 'fieldLabels' | 'createStatus' | 'required' | 'extraFields';

interface VariantCase {
	name: string;
	variants: Partial<Variants>;
	gaps?: Gap[];
}

const VARIANTS: VariantCase[] = [
	{ name: 'bare bodies (no envelope)', variants: { bare: true } },
	{ name: 'success flag as "true"/"false"', variants: { successFlag: 'string' } },
	{ name: 'success flag as 1/0', variants: { successFlag: 'number' } },
	{ name: 'ids as numeric strings', variants: { stringIds: true } },
	{ name: 'lists wrapped in {items}', variants: { wrapLists: true } },
	{ name: 'values as plain strings', variants: { plainValues: true }, gaps: ['valueTitles'] },
	{ name: 'values as [{id,title}]', variants: { valuesShape: 'idTitle' } },
	{ name: 'values as [{id,value}]', variants: { valuesShape: 'idValue' } },
	{ name: 'values as an {id: title} map', variants: { valuesShape: 'map' } },
	{ name: 'nested steps under each value', variants: { nestedUnder: 'value' } },
	{
		name: 'nested under each value, values as [{id,value}]',
		variants: { nestedUnder: 'value', valuesShape: 'idValue' },
	},
	{ name: 'bundle data keyed by step id', variants: { bundleDataShape: 'map' } },
	{ name: 'every list as a map keyed by id', variants: { listShape: 'map' } },
	{
		name: 'every list as a map keyed by id, ids as strings, bare',
		variants: { listShape: 'map', stringIds: true, bare: true },
	},
	{
		name: 'step fields as a code → value map',
		variants: { fieldsShape: 'map' },
		gaps: ['fieldLabels'],
	},
	{ name: 'status as "1"/"0"', variants: { statusShape: 'string' } },
	{ name: 'status as "active"/"paused"', variants: { statusShape: 'word' } },
	{
		name: 'detail without status',
		variants: { detailWithoutStatus: true },
		gaps: ['createStatus'],
	},
	{ name: 'list items with only id and title', variants: { listWithoutStatus: true } },
	{ name: 'installation wrapped as {installation}', variants: { installationWrapper: true } },
	{
		name: 'credential meta without required',
		variants: { metaRequired: false },
		gaps: ['required'],
	},
	{
		name: 'credential meta with other field types',
		variants: { metaExtraTypes: true },
		gaps: ['extraFields'],
	},
	{ name: 'credential body wrapped in {fields}', variants: { credentialBody: 'fields' } },
	{ name: 'lists paged, X-Pagination-* headers', variants: { pagination: 'headers' } },
	{ name: 'lists paged, Link header', variants: { pagination: 'link' } },
	{
		name: 'lists paged, Link header, page parameter renamed',
		variants: { pagination: 'link', pageParam: 'p' },
	},
	{ name: 'lists paged, {items, _links, _meta} in the envelope', variants: { pagination: 'body' } },
	{ name: "lists paged, Laravel's {data, meta}", variants: { pagination: 'meta' } },
	{
		name: "lists paged, Laravel's {data, meta}, bare",
		variants: { pagination: 'meta', bare: true },
	},
	{
		name: 'lists paged, {items, _links, _meta} bare, ids as strings',
		variants: { pagination: 'body', bare: true, stringIds: true, listWithoutStatus: true },
	},
	{
		name: 'many at once',
		variants: {
			bare: true,
			stringIds: true,
			wrapLists: true,
			valuesShape: 'idValue',
			nestedUnder: 'value',
			bundleDataShape: 'map',
			statusShape: 'word',
			installationWrapper: true,
			listWithoutStatus: true,
		},
	},
];

const CHOICES_101 = {
	crm: 'hubspot',
	hubspotPipeline: 'sales',
	hubspotStage: 'won',
	mailer: 'mailchimp',
};

async function run(parameters: INodeParameters) {
	const result = await runNode(ctx.emu, parameters);
	if (result.error)
		throw new Error(
			`${String(parameters.resource)}.${String(parameters.operation)}: ${result.error.message}`,
		);
	return result.json;
}

/** Steps with their values; value titles dropped when the variant has none. */
const stepsView = (steps: unknown, gaps: Set<Gap>): unknown =>
	(steps as IDataObject[]).map((step) => ({
		id: step.id,
		title: step.title,
		values: (step.values as IDataObject[]).map((v) =>
			gaps.has('valueTitles') ? { value: v.value } : v,
		),
		nested: stepsView(step.nested, gaps),
	}));

/**
 * Every affected operation, projected onto what the node promises; same input, fresh fixtures each
 * time.
 */
async function scenario(variants: Partial<Variants>, gaps: Set<Gap>) {
	ctx.emu.reset();
	ctx.emu.setVariants(variants);
	const out: Record<string, unknown> = {};

	for (const [key, choices] of [
		['settingsComplete', CHOICES_101],
		['settingsPartial', { crm: 'hubspot' }],
	] as const) {
		const [settings] = await run({
			resource: 'solution',
			operation: 'getConnectionSettings',
			solutionId: byId('id', 101),
			credentialData: JSON.stringify(choices),
		});
		out[key] = {
			steps: stepsView(settings.steps, gaps),
			credentialData: settings.credentialData,
			complete: settings.complete,
			missing: (settings.missing as IDataObject[]).map((step) => step.id),
		};
	}

	out.solutions = (await run({ resource: 'solution', operation: 'getAll', returnAll: true })).map(
		(item) => [item.id, item.title],
	);
	out.templates = (
		await run({ resource: 'solution', operation: 'getTemplates', solutionId: byId('id', 101) })
	).map((item) => [item.id, item.title]);

	const [detail] = await run({
		resource: 'installation',
		operation: 'get',
		installationId: byId('id', 5001),
		includeBundles: true,
	});
	out.get = {
		id: detail.id,
		appId: detail.appId,
		solutionId: detail.solutionId,
		title: detail.title,
		status: detail.status,
		bundles: Object.entries(detail.bundles as IDataObject).map(([key, bundle]) => [
			key,
			((bundle as IDataObject).steps as IDataObject[]).map((step) => String(step.id)),
		]),
	};

	const ids = (list: IDataObject[]) => list.map((item) => item.id);
	out.listAll = (await run({ resource: 'installation', operation: 'getAll', returnAll: true })).map(
		(item) => [item.id, item.title],
	);
	out.listActive = ids(
		await run({
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'active' },
		}),
	);
	out.listPausedOf101 = ids(
		await run({
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'paused', solutionId: byId('id', 101) },
		}),
	);
	out.listOf102 = ids(
		await run({
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { solutionId: byId('id', 102) },
		}),
	);

	const records = await run({
		resource: 'bundleData',
		operation: 'getAll',
		installationId: byId('id', 5001),
	});
	out.bundleData = records.map((record) => ({
		id: record.id,
		bundleId: record.bundleId,
		bundleTitle: record.bundleTitle,
		data: (record.data as IDataObject[]).map((field) =>
			gaps.has('fieldLabels') ? { name: field.name, value: field.value } : field,
		),
	}));

	// Pause and resume around an update of the active installation: same calls, same end state.
	const before = ctx.emu.requests.length;
	const [updated] = await run({
		...VALID.update,
		installationId: byId('id', 5001),
		bundleId: 7001,
		stepId: 9002,
		fieldValues: '{"subject": "Changed in every variant"}',
		ifActive: 'pauseAndResume',
	});
	out.update = {
		result: {
			id: updated.id,
			bundleId: updated.bundleId,
			installationId: updated.installationId,
			pausedForUpdate: updated.pausedForUpdate,
			installationStatus: updated.installationStatus,
		},
		// A detail without status costs one list call to learn it; that call is the only difference
		// allowed. Further pages of a list are the other (paged variants).
		calls: ctx.emu.requests
			.slice(before)
			.filter((r) => r.query.page === undefined && r.query.p === undefined)
			.map((r) => `${r.method} ${r.path}`)
			.filter((call) => call !== 'GET /solution/installation'),
		statusAfter: ctx.emu.state.installations.get(5001)!.status,
		value: ctx.emu.state.bundleData.get(9002)!.fields.find((f) => f.name === 'subject')!.value,
	};

	const [paused] = await run({
		resource: 'installation',
		operation: 'pause',
		installationId: byId('id', 5001),
	});
	const [started] = await run({
		resource: 'installation',
		operation: 'start',
		installationId: byId('id', 5002),
	});
	out.status = [paused.id, paused.status, started.id, started.status];

	const [created] = await run({
		resource: 'installation',
		operation: 'create',
		solutionId: byId('list', 101),
		title: 'Variant install',
		connectionSettingsMode: 'json',
		credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
		templateIds: [1011],
	});
	out.create = {
		id: created.id,
		appId: created.appId,
		title: created.title,
		...(gaps.has('createStatus') ? {} : { status: created.status }),
	};

	const [schema] = await run({ resource: 'credential', operation: 'getSchema', partnerId: 201 });
	out.schema = {
		partnerId: schema.partnerId,
		fields: (schema.fields as IDataObject[])
			.filter(
				(field) =>
					!gaps.has('extraFields') || ['apiUrl', 'apiKey', 'region'].includes(String(field.id)),
			)
			.map(({ required, ...field }) => (gaps.has('required') ? field : { ...field, required })),
	};

	const [credential] = await run({
		resource: 'credential',
		operation: 'create',
		partnerId: 201,
		connectionName: 'Variant CRM',
		fieldsMode: 'json',
		fields:
			'{"apiUrl": "https://crm.example", "apiKey": "sk_live_0123456789abcdef", "region": "eu"}',
		options: variants.credentialBody === 'fields' ? { bodyLayout: 'fields' } : {},
	});
	out.credential = {
		partnerId: credential.partnerId,
		title: credential.title,
		values: credential.values,
	};
	return out;
}

let baseline: Record<string, unknown> | undefined;
const defaultOutputs = async (gaps: Set<Gap>) => {
	// The baseline is computed with the same gaps applied, so only the named information is left out.
	if (gaps.size > 0) return await scenario({}, gaps);
	baseline ??= await scenario({}, gaps);
	return baseline;
};

describe('every variant gives the default outputs', () => {
	it('the default outputs are the documented ones (so the comparison is not empty)', async () => {
		const out = await defaultOutputs(new Set());
		expect(out.settingsComplete).toMatchObject({
			complete: true,
			credentialData: CHOICES_101,
			missing: [],
		});
		expect(out.solutions).toEqual([
			[101, expect.any(String)],
			[102, expect.any(String)],
			[103, expect.any(String)],
			[105, expect.any(String)],
		]);
		expect(out.templates).toEqual([
			[1011, expect.any(String)],
			[1012, expect.any(String)],
		]);
		expect(out.settingsPartial).toMatchObject({
			complete: false,
			missing: ['hubspotPipeline', 'mailer'],
		});
		expect(out.get).toMatchObject({
			id: 5001,
			appId: 101,
			status: 1,
			bundles: [
				['7001', ['9001', '9002']],
				['7002', ['9003', '9004']],
			],
		});
		expect(out.listActive).toEqual([5001]);
		expect(out.listPausedOf101).toEqual([5002]);
		expect(out.listOf102).toEqual([]);
		expect(out.update).toMatchObject({
			result: { pausedForUpdate: true, installationStatus: 1 },
			statusAfter: 1,
			value: 'Changed in every variant',
		});
		expect((out.update as { calls: string[] }).calls).toEqual([
			'GET /solution/installation/5001',
			'PAUSE /solution/installation/5001',
			'PUT /bundle/data/9002',
			'PLAY /solution/installation/5001',
		]);
		expect(out.status).toEqual([5001, 0, 5002, 1]);
		expect(out.create).toMatchObject({ appId: 101, status: 0 });
		expect(out.credential).toMatchObject({
			partnerId: 201,
			values: { apiKey: '[hidden]', region: 'eu' },
		});
	});

	it.each(VARIANTS.map((v) => [v.name, v] as const))(
		'%s',
		async (_name, { variants, gaps = [] }) => {
			const gapSet = new Set(gaps);
			const expected = await defaultOutputs(gapSet);
			const actual = await scenario(variants, gapSet);
			expect(Object.keys(expected).length).toBeGreaterThan(0);
			for (const key of Object.keys(expected))
				expect([key, actual[key]]).toEqual([key, expected[key]]);
		},
	);
});

describe("the service's own error text reaches the user in every error style", () => {
	it.each(ERROR_STYLES)('%s', async (style) => {
		ctx.emu.setErrorStyle(style);
		const active = await runNode(ctx.emu, {
			...VALID.update,
			installationId: byId('id', 5001),
			bundleId: 7001,
			stepId: 9002,
			fieldValues: '{"subject": "x"}',
		});
		expect(active.error?.message).toContain(
			'Installation 5001 is active: pause the installation first',
		);
		expect(active.error?.httpCode).toBe('422');
		expect(active.error?.description).toMatch(/If Installation Is Active/);

		const unknown = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'get',
			installationId: byId('id', 999),
		});
		expect(unknown.error?.message).toBe('Installation 999 not found');

		// A field-level refusal: the field and the service's words both arrive.
		const wrongType = await runNode(ctx.emu, { ...VALID.update, fieldValues: '{"subject": 5}' });
		expect(wrongType.error?.message).toContain('data.subject: must be a string');
	});
});

describe('a failure in the envelope of a 200 is an error whatever the success flag looks like', () => {
	it.each(VARIANT_CHOICES.successFlag.map((flag) => [flag]))('%s', async (flag) => {
		ctx.emu.setVariants({ successFlag: flag });
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9006', successFalse: true });
		const update = await runNode(ctx.emu, VALID.update);
		// Not applied, so it must not be reported as updated.
		expect(update.json).toEqual([]);
		expect(update.error?.message).toBe('Emulated failure (success: false)');
		expect(update.error?.httpCode).toBe('200');
		expect(
			ctx.emu.state.bundleData.get(9006)!.fields.find((f) => f.name === 'subject')!.value,
		).not.toBe('ok');

		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', successFalse: true });
		const list = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(list.json).toEqual([]);
		expect(list.error?.message).toBe('Emulated failure (success: false)');
	});
});

describe('a 2xx list answer that holds no list fails; it never reads as "none"', () => {
	const LISTS: Array<[string, string, INodeParameters]> = [
		['solutions', '/solution/apps', { resource: 'solution', operation: 'getAll', returnAll: true }],
		[
			'templates',
			'/solution/101/templates',
			{ resource: 'solution', operation: 'getTemplates', solutionId: byId('id', 101) },
		],
		[
			'bundle data',
			'/bundle/data',
			{
				resource: 'bundleData',
				operation: 'getAll',
				installationId: byId('id', 5001),
				scope: 'bundle',
				bundleId: 7001,
			},
		],
		[
			'installations',
			'/solution/installation',
			{ resource: 'installation', operation: 'getAll', returnAll: true },
		],
	];

	it.each(LISTS)('%s: an empty 200', async (what, path, parameters) => {
		ctx.emu.faults.add({ method: 'GET', path, emptyBody: true });
		const run = await runNode(ctx.emu, parameters);
		expect(run.json).toEqual([]);
		expect(run.error?.message).toBe(
			`The service's list of ${what} could not be read: it answered an empty body`,
		);
		expect(run.error?.description).toMatch(
			new RegExp(
				`^GET ${path.replace(/\//g, '\\/')} → 200\\. This call changes nothing; try again later\\.`,
			),
		);
	});

	it('connection settings: an empty 200 is an error, not a solution without settings', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/101/credentialists', emptyBody: true });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getConnectionSettings',
			solutionId: byId('id', 101),
			credentialData: '{}',
		});
		expect(run.json).toEqual([]);
		expect(run.error?.message).toBe(
			"The service's connection settings could not be read: it answered an empty body",
		);
	});
});

describe('Credential Create body layout', () => {
	const create = (options: INodeParameters = {}) =>
		runNode(ctx.emu, {
			resource: 'credential',
			operation: 'create',
			partnerId: 202,
			connectionName: 'Chat',
			fieldsMode: 'json',
			fields: '{"token": "bot-token-0123456789"}',
			options,
		});

	it("a refusal of the layout sent names the option that switches it, with the service's words", async () => {
		ctx.emu.setVariants({ credentialBody: 'fields' });
		const run = await create();
		expect(run.error?.message).toContain('fields: is required');
		expect(run.error?.description).toContain(
			'set Options → Body Layout to "Wrapped (Fields Object)"',
		);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ token: 'bot-token-0123456789', title: 'Chat' });
	});

	it('an unknown layout (from an expression) fails before any request', async () => {
		const run = await create({ bodyLayout: 'nested' });
		expect(run.error?.message).toBe(
			'Options → Body Layout must be "flat" or "fields", got "nested"',
		);
		expect(ctx.emu.requests).toHaveLength(0);
	});

	it('the other way round as well, and the wrapped layout sends {title, fields}', async () => {
		const refused = await create({ bodyLayout: 'fields' });
		expect(refused.error?.description).toContain('Body Layout to "Flat (Documented)"');
		ctx.emu.setVariants({ credentialBody: 'fields' });
		const ok = await create({ bodyLayout: 'fields' });
		expect(ok.error).toBeUndefined();
		expect(ctx.emu.requests.at(-1)!.body).toEqual({
			title: 'Chat',
			fields: { token: 'bot-token-0123456789' },
		});
		expect(ok.json[0]).toMatchObject({ title: 'Chat', values: { token: '[hidden]' } });
	});
});
