/** Credential → Create: values checked against the schema, sent with the name, secrets hidden. */
import { runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Credential → Create', () => {
	it('Create checks the values against the schema, sends them with the name, and hides secrets', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'credential',
			operation: 'create',
			partnerId: 201,
			connectionName: 'Initech CRM',
			fieldsMode: 'mapper',
			connectionFieldMapper: {
				mappingMode: 'defineBelow',
				value: {
					apiUrl: 'https://crm.initech.example',
					apiKey: 'sk_live_0123456789abcdef',
					region: 'eu',
				},
			},
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['GET /credentials/201/meta', 'POST /credentials/201']);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({
			apiUrl: 'https://crm.initech.example',
			apiKey: 'sk_live_0123456789abcdef',
			region: 'eu',
			title: 'Initech CRM',
		});
		expect(JSON.stringify(run.json)).not.toContain('0123456789abcdef');
		expect(run.json[0]).toMatchObject({ title: 'Initech CRM', partnerId: 201 });
	});

	it('Create refuses values outside the schema before sending anything but the schema read', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'credential',
			operation: 'create',
			partnerId: 201,
			connectionName: 'Initech CRM',
			fieldsMode: 'json',
			fields: '{"apiUrl": "https://x.example", "region": "mars"}',
		});
		expect(run.error?.message).toMatch(/apiKey.*required/);
		expect(run.error?.description).toMatch(/region.*"eu", "us"/);
		expect(run.calls).toEqual(['GET /credentials/201/meta']);
	});
});
