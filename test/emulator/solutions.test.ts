/** Endpoints 1–4: solutions, connection settings, templates, install. */
import { startEmulator, type Emulator } from '../../emulator';
import { FIXTURE_IDS, VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { auth, call, raw } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

describe('GET /solution/apps', () => {
	it('lists only the latest published version of each solution; drafts never', async () => {
		const res = await call(emu, 'GET', '/solution/apps');
		expect(res.status).toBe(200);
		expect(res.data.success).toBe(true);
		const items = res.data.data as {
			id: number;
			title: string;
			version: number;
			description: string;
		}[];
		expect(items.map((s) => s.id)).toEqual([101, 102, 103, 105]); // 105: 101's next version
		expect(items[0]).toMatchObject({ id: 101, title: 'CRM Leads to Mailer', version: 2 });
		expect(typeof items[0].description).toBe('string');
	});
});

describe('GET /solution/{id}/credentialists', () => {
	it('returns top-level steps only, nested empty until a value is named', async () => {
		const res = await call(emu, 'GET', '/solution/101/credentialists');
		expect(res.status).toBe(200);
		expect(res.data.data).toEqual([
			{
				id: 'crm',
				title: 'CRM',
				values: [
					{ value: 'hubspot', title: 'HubSpot' },
					{ value: 'pipedrive', title: 'Pipedrive' },
				],
				nested: [],
			},
			{
				id: 'mailer',
				title: 'Mailer',
				values: [
					{ value: 'mailchimp', title: 'Mailchimp' },
					{ value: 'sendpulse', title: 'SendPulse' },
				],
				nested: [],
			},
		]);
	});

	it('reveals nested steps level by level, different ones per value, three levels deep', async () => {
		const hub = await call(emu, 'GET', '/solution/101/credentialists?credentialData[crm]=hubspot');
		expect(hub.data.data[0].nested.map((s: { id: string }) => s.id)).toEqual(['hubspotPipeline']);
		expect(hub.data.data[0].nested[0].nested).toEqual([]);
		const pipe = await call(
			emu,
			'GET',
			'/solution/101/credentialists?credentialData[crm]=pipedrive',
		);
		expect(pipe.data.data[0].nested.map((s: { id: string }) => s.id)).toEqual(['pipedriveFilter']);

		// Percent-encoded brackets too; full choices give the whole tree down to the leaves.
		const full = await call(
			emu,
			'GET',
			'/solution/101/credentialists?credentialData%5Bcrm%5D=hubspot&credentialData%5BhubspotPipeline%5D=support&credentialData[hubspotQueue]=tier1',
		);
		const level3 = full.data.data[0].nested[0].nested;
		expect(level3.map((s: { id: string }) => s.id)).toEqual(['hubspotQueue']);
		expect(level3[0].nested).toEqual([]);
	});

	it('has a flat solution and one step offering exactly one value', async () => {
		const flat = await call(
			emu,
			'GET',
			'/solution/102/credentialists?credentialData[shop]=shopify',
		);
		expect(flat.data.data.length).toBeGreaterThan(0);
		expect(flat.data.data.every((s: { nested: unknown[] }) => s.nested.length === 0)).toBe(true);
		const one = await call(
			emu,
			'GET',
			'/solution/103/credentialists?credentialData[helpdesk]=zendesk',
		);
		expect(one.data.data[0].nested[0].values).toEqual([{ value: 'main', title: 'Main brand' }]);
	});

	it('rejects unknown steps and values not offered with 422', async () => {
		const res = await call(
			emu,
			'GET',
			'/solution/101/credentialists?credentialData[crm]=salesforce&credentialData[nope]=x',
		);
		expect(res.status).toBe(422);
		expect(res.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'credentialData[crm]',
			'credentialData[nope]',
		]);
		expect((await call(emu, 'GET', '/solution/101/credentialists?credentialData=abc')).status).toBe(
			422,
		);
	});

	it('404s for unknown and draft-only solutions', async () => {
		expect((await call(emu, 'GET', '/solution/999/credentialists')).status).toBe(404);
		expect((await call(emu, 'GET', '/solution/104/credentialists')).status).toBe(404);
	});
});

describe('GET /solution/{id}/templates', () => {
	it('returns the templates with parent automation and params', async () => {
		const res = await call(emu, 'GET', '/solution/101/templates');
		expect(res.status).toBe(200);
		expect(res.data.data.map((t: { id: number }) => t.id)).toEqual([1011, 1012]);
		expect(res.data.data[0]).toEqual({
			id: 1011,
			title: expect.any(String),
			parentAutomation: { id: 3011, title: expect.any(String) },
			params: expect.any(Object),
		});
		expect(
			(await call(emu, 'GET', '/solution/102/templates')).data.data.map(
				(t: { id: number }) => t.id,
			),
		).toEqual([1021]);
		expect((await call(emu, 'GET', '/solution/104/templates')).status).toBe(404);
	});
});

describe('POST /solution/{id}/installation', () => {
	const valid = () => ({
		title: 'My install',
		templateIds: [1011, 1012],
		credentialData: { ...VALID_CREDENTIAL_DATA[101] },
		settings: { tz: 'UTC' },
	});

	it('creates a paused installation with one bundle per template, each with steps and fields', async () => {
		const res = await call(emu, 'POST', '/solution/101/installation', { body: valid() });
		expect(res.status).toBe(201);
		const inst = res.data.data;
		expect(inst).toMatchObject({
			id: FIXTURE_IDS.nextInstallation,
			appId: 101,
			solutionId: 101,
			title: 'My install',
			status: 0,
			settings: { tz: 'UTC' },
		});
		expect(new Date(inst.dateCreated).toISOString()).toBeTruthy();
		expect(inst.bundles).toBeUndefined();
		const record = emu.state.installations.get(inst.id)!;
		expect(record.bundleIds).toHaveLength(2);
		for (const bundleId of record.bundleIds) {
			const bundle = emu.state.bundles.get(bundleId)!;
			expect(bundle.stepIds).toHaveLength(2);
			expect(emu.state.bundleData.get(bundle.stepIds[0])!.fields.length).toBeGreaterThan(0);
		}
		const second = await call(emu, 'POST', '/solution/101/installation', {
			body: { ...valid(), settings: undefined },
		});
		expect(second.data.data.id).toBe(FIXTURE_IDS.nextInstallation + 1);
	});

	it('uses initialStatus when configured', async () => {
		const active = await startEmulator({ initialStatus: 1 });
		try {
			const res = await call(active, 'POST', '/solution/102/installation', {
				body: { title: 't', templateIds: [1021], credentialData: VALID_CREDENTIAL_DATA[102] },
			});
			expect(res.data.data.status).toBe(1);
		} finally {
			await active.close();
		}
	});

	it('reports one 422 entry per bad field', async () => {
		const res = await call(emu, 'POST', '/solution/101/installation', { body: {} });
		expect(res.status).toBe(422);
		expect(res.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'title',
			'templateIds',
			'credentialData',
		]);
		const res2 = await call(emu, 'POST', '/solution/101/installation', {
			body: { title: '  ', templateIds: [1021], credentialData: [], settings: 'x' },
		});
		expect(res2.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'title',
			'templateIds',
			'credentialData',
			'settings',
		]);
	});

	it.each([
		[{ templateIds: [] }, 'templateIds'],
		[{ templateIds: '1011' }, 'templateIds'],
		[{ templateIds: ['1011'] }, 'templateIds'],
		[{ templateIds: [1011, 1011] }, 'templateIds'],
		[{ title: 5 }, 'title'],
		[{ settings: null }, 'settings'],
	])('rejects %j', async (patch, field) => {
		const res = await call(emu, 'POST', '/solution/101/installation', {
			body: { ...valid(), ...patch },
		});
		expect(res.status).toBe(422);
		expect(res.data.errors.map((e: { field: string }) => e.field)).toEqual([field]);
	});

	it('checks credentialData completeness, nested steps included, and that values are offered', async () => {
		const missingNested = await call(emu, 'POST', '/solution/101/installation', {
			body: {
				...valid(),
				credentialData: { crm: 'hubspot', hubspotPipeline: 'sales', mailer: 'mailchimp' },
			},
		});
		expect(missingNested.data.errors).toEqual([
			{ field: 'credentialData.hubspotStage', message: expect.stringContaining('required') },
		]);
		const notOffered = await call(emu, 'POST', '/solution/101/installation', {
			body: { ...valid(), credentialData: { ...VALID_CREDENTIAL_DATA[101], hubspotStage: 'lost' } },
		});
		expect(notOffered.data.errors).toEqual([
			{ field: 'credentialData.hubspotStage', message: expect.stringContaining('not offered') },
		]);
		const stale = await call(emu, 'POST', '/solution/101/installation', {
			body: {
				...valid(),
				credentialData: { ...VALID_CREDENTIAL_DATA[101], pipedriveFilter: 'all', extra: 'x' },
			},
		});
		expect(stale.data.errors.map((e: { field: string }) => e.field)).toEqual([
			'credentialData.pipedriveFilter',
			'credentialData.extra',
		]);
	});

	it('404s for unknown or draft-only solutions, 400 for bad JSON, 415 for a non-JSON body', async () => {
		expect((await call(emu, 'POST', '/solution/104/installation', { body: valid() })).status).toBe(
			404,
		);
		expect((await call(emu, 'POST', '/solution/999/installation', { body: valid() })).status).toBe(
			404,
		);
		const badJson = await raw(emu, 'POST', '/solution/101/installation', {
			body: '{"title": ',
			headers: { ...auth(emu), 'Content-Type': 'application/json' },
		});
		expect(badJson.status).toBe(400);
		expect(JSON.parse(badJson.text).errors[0].message).toMatch(/Invalid JSON body/);
		const array = await call(emu, 'POST', '/solution/101/installation', {
			body: [1],
			headers: { 'Content-Type': 'application/json' },
		});
		expect(array.status).toBe(400);
		const form = await call(emu, 'POST', '/solution/101/installation', {
			body: 'title=x',
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		});
		expect(form.status).toBe(415);
		expect(emu.state.installations.size).toBe(3);
	});
});
