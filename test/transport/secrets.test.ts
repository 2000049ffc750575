/**
 * The end user's token never appears in an output, an error (message, description, cause, stack)
 * or a log line; Credential → Create's secret values are not echoed.
 */
import type { INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { captureConsole } from '../support/secrets';
import { byId, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

const scenarios: Array<[string, INodeParameters, (emu: typeof ctx.emu) => void]> = [
	[
		'success',
		{
			resource: 'installation',
			operation: 'get',
			installationId: byId('id', 5001),
			includeBundles: true,
		},
		() => {},
	],
	[
		'404',
		{ resource: 'installation', operation: 'start', installationId: byId('id', 4242) },
		() => {},
	],
	[
		'422 on update',
		{
			resource: 'bundleData',
			operation: 'update',
			installationId: byId('id', 5001),
			bundleId: 7001,
			stepId: 9002,
			fieldValuesMode: 'json',
			fieldValues: '{"subject": "x"}',
		},
		() => {},
	],
	[
		'500',
		{ resource: 'solution', operation: 'getAll', requestOptions: { maxRetries: 0 } },
		(emu) => emu.faults.add({ path: '/solution/apps', status: 500 }),
	],
	[
		'reset',
		{ resource: 'solution', operation: 'getAll', requestOptions: { maxRetries: 0 } },
		(emu) => emu.faults.add({ path: '/solution/apps', reset: 'before' }),
	],
	[
		'timeout',
		{ resource: 'solution', operation: 'getAll', requestOptions: { maxRetries: 0, timeout: 0.1 } },
		(emu) => emu.faults.add({ path: '/solution/apps', delayMs: 400 }),
	],
	[
		'malformed body',
		{ resource: 'solution', operation: 'getAll' },
		(emu) => emu.faults.add({ path: '/solution/apps', malformedJson: true }),
	],
	[
		'lost install answer',
		{
			resource: 'installation',
			operation: 'create',
			solutionId: byId('id', 102),
			title: 'T',
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
			templateIds: [1021],
		},
		(emu) => emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' }),
	],
	[
		'text error style',
		{ resource: 'installation', operation: 'start', installationId: byId('id', 4242) },
		(emu) => emu.setErrorStyle('text'),
	],
];

describe('the token stays secret', () => {
	const logged = captureConsole({ stdout: true });

	it.each(scenarios)(
		'%s: not in the output, the error or the logs',
		async (_name, parameters, prepare) => {
			prepare(ctx.emu);
			const token = ctx.emu.token();
			const run = await runNode(ctx.emu, parameters, { token });
			expect(run.calls.length).toBeGreaterThan(0);
			expect(run.serialized).not.toContain(token);
			expect(JSON.stringify(run.json)).not.toContain(token);
			// Only the plain read and the lost install answer (found again in the list) succeed.
			expect(run.error !== undefined).toBe(!['success', 'lost install answer'].includes(_name));
			if (run.error) {
				for (const text of [
					run.error.message,
					run.error.description,
					run.error.stack,
					JSON.stringify(run.error),
					String((run.error as { cause?: unknown }).cause),
				]) {
					expect(String(text)).not.toContain(token);
				}
			}
			expect(logged.join('\n')).not.toContain(token);
		},
	);

	it('a rejected (badly signed) token is not echoed in the 401 error', async () => {
		const token = `${ctx.emu.token().slice(0, -4)}AAAA`;
		const run = await runNode(ctx.emu, { resource: 'solution', operation: 'getAll' }, { token });
		expect(run.error?.httpCode).toBe('401');
		expect(run.error?.description).toMatch(/Access Token/);
		expect(run.serialized).not.toContain(token);
	});

	it('an expired token fails before any request, saying when it expired', async () => {
		const token = ctx.emu.token({ exp: Math.floor(Date.UTC(2025, 0, 2) / 1000) });
		const run = await runNode(ctx.emu, { resource: 'solution', operation: 'getAll' }, { token });
		expect(run.error?.message).toBe('The access token expired at 2025-01-02T00:00:00.000Z');
		expect(run.calls).toEqual([]);
		expect(run.serialized).not.toContain(token);
	});
});
