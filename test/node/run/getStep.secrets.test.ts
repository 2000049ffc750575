/**
 * Run → Get Step and Run → Get Many: keys that name a secret (token, accessToken, api_key,
 * password, Authorization…) are left out of a step at any depth; the other keys stay.
 */
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const SECRETS = ['sk-live-1', 'refresh-2', 'pw-3', 'Bearer abc-4', 'client-5', 'key-6', 'key-7'];

/** A run of user-1 whose step carries third-party credentials in its request and warning data. */
function runWithSecrets() {
	return ctx.emu.recordRun({
		bundleId: 7001,
		outcome: 'succeeded',
		dateCreated: '2024-06-01 10:00:00',
		steps: [
			[
				{
					warningData: [{ apiKey: 'key-7', note: 'kept' }],
					detail: {
						requestData: {
							headers: { Authorization: 'Bearer abc-4', Accept: 'application/json' },
							body: {
								access_token: 'sk-live-1',
								contacts: [{ email: 'a@example.com', password: 'pw-3' }],
							},
							'X-Api-Key': 'key-6',
						},
						responseData: { refreshToken: 'refresh-2', clientSecret: 'client-5', ok: true },
					},
				},
			],
		],
	});
}

describe('step secrets', () => {
	it('Get Step leaves out every key that names a secret, at any depth', async () => {
		const step = runWithSecrets().steps[0][0];
		const run = await runNode(ctx.emu, {
			resource: 'run',
			operation: 'getStep',
			runStepId: String(step.id),
		});
		expect(run.error).toBeUndefined();
		for (const secret of SECRETS) expect(run.serialized).not.toContain(secret);
		expect(run.json[0]).toMatchObject({
			requestData: {
				headers: { Accept: 'application/json' },
				body: { contacts: [{ email: 'a@example.com' }] },
			},
			responseData: { ok: true },
			warningData: [{ note: 'kept' }],
		});
		expect(run.json[0]).not.toHaveProperty('token');
	});

	it('Get Many leaves them out of its steps too', async () => {
		const made = runWithSecrets();
		const run = await runNode(ctx.emu, {
			resource: 'run',
			operation: 'getAll',
			installationId: byId('id', 5001),
			returnAll: true,
		});
		const item = run.json.find((r) => r.id === made.id)!;
		expect(item).toBeDefined();
		expect(item.steps).toEqual([expect.objectContaining({ warningData: [{ note: 'kept' }] })]);
		expect(run.serialized).not.toContain('key-7');
	});
});
