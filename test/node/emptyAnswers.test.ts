/**
 * Every operation on a 2xx with an empty body: the item fails readably, paired, as {error, message}
 * only.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { FaultRule } from '../../emulator';
import { runWorkflow } from '../../harness';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { byId, NODE_NAME, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

const FAST = { requestOptions: { maxRetries: 1, retryBudget: 5 } };

const operations: Array<[string, INodeParameters, Pick<FaultRule, 'method' | 'path'>]> = [
	[
		'Solution → Get Many',
		{ resource: 'solution', operation: 'getAll', returnAll: true },
		{ method: 'GET', path: '/solution/apps' },
	],
	[
		'Solution → Get Templates',
		{ resource: 'solution', operation: 'getTemplates', solutionId: byId('id', 101) },
		{ method: 'GET', path: '/solution/101/templates' },
	],
	[
		'Solution → Get Connection Settings',
		{ resource: 'solution', operation: 'getConnectionSettings', solutionId: byId('id', 102) },
		{ method: 'GET', path: '/solution/102/credentialists' },
	],
	[
		'Installation → Get',
		{ resource: 'installation', operation: 'get', installationId: byId('id', 5001) },
		{ method: 'GET', path: '/solution/installation/5001' },
	],
	[
		'Installation → Get Many',
		{ resource: 'installation', operation: 'getAll', returnAll: true },
		{ method: 'GET', path: '/solution/installation' },
	],
	[
		'Credential → Get Schema',
		{ resource: 'credential', operation: 'getSchema', partnerId: 201 },
		{ method: 'GET', path: '/credentials/201/meta' },
	],
	[
		'Bundle Data → Get Many (one automation)',
		{
			resource: 'bundleData',
			operation: 'getAll',
			installationId: byId('id', 5001),
			scope: 'bundle',
			bundleId: 7001,
		},
		{ method: 'GET', path: '/bundle/data' },
	],
];

describe('a 2xx with an empty body fails the item readably, paired, as {error, message} only', () => {
	it.each(operations)('%s', async (_name, parameters, target) => {
		ctx.emu.faults.add({ ...target, emptyBody: true });
		const before = ctx.emu.requests.length;
		const result = await runWorkflow({
			nodeTypes: [new AlbatoSolutions()],
			nodes: [
				{
					name: NODE_NAME,
					type: 'albatoSolutions',
					parameters: { ...parameters, ...FAST },
					onError: 'continueErrorOutput',
				},
			],
			inputItems: [{}],
			credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
		});
		expect(result.outputAt(NODE_NAME, 0)).toEqual([]);
		const failed = result.outputAt(NODE_NAME, 1);
		expect(failed).toHaveLength(1);
		expect(failed[0].pairedItem).toEqual({ item: 0 });
		expect(Object.keys(failed[0].json).sort()).toEqual(['error', 'message']);
		expect(failed[0].json.error).toMatch(/could not be read: it answered an empty body/);
		expect(failed[0].json.message).toMatch(
			new RegExp(`^${target.method} ${String(target.path).replace(/\//g, '\\/')} → 200\\.`),
		);
		const calls = ctx.emu.requests.slice(before).map((entry) => `${entry.method} ${entry.path}`);
		expect(calls.filter((call) => call === `${target.method} ${target.path}`)).toHaveLength(1);
		expect(JSON.stringify(result.run)).not.toContain(ctx.token);
	});

	it('Installation → Get does not make up an installation from the list (no {status} item)', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation/5001', emptyBody: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'get',
			installationId: byId('id', 5001),
			...FAST,
		});
		expect(run.error?.message).toMatch(/installation could not be read/);
		expect(run.calls).toEqual(['GET /solution/installation/5001']);
	});

	it.each([
		['Start', 'start', 'PLAY', 5002, 1],
		['Pause', 'pause', 'PAUSE', 5001, 0],
	] as const)(
		'Installation → %s: a 2xx without the installation is confirmed by a read, then reported done',
		async (_name, operation, method, id, status) => {
			ctx.emu.faults.add({ method, path: `/solution/installation/${id}`, emptyBody: true });
			const run = await runNode(ctx.emu, {
				resource: 'installation',
				operation,
				installationId: byId('id', id),
				...FAST,
			});
			expect(run.error).toBeUndefined();
			expect(run.json).toHaveLength(1);
			expect(run.json[0]).toMatchObject({ id, status });
			expect(run.calls).toEqual([
				`${method} /solution/installation/${id}`,
				`GET /solution/installation/${id}`,
			]);
		},
	);

	it('Installation → Start: when the confirming read cannot tell either, fails saying PLAY is safe to send again', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: '/solution/installation/5002', emptyBody: true });
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation/5002', emptyBody: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
			...FAST,
		});
		expect(run.error?.message).toMatch(/installation could not be read: it answered an empty body/);
		expect(run.error?.description).toMatch(
			/^PLAY \/solution\/installation\/5002 → 200\. .*PLAY is safe to send again/,
		);
		expect(run.error?.httpCode).toBe('200');
	});

	it('Solution → Get Connection Settings never reports "complete" from an empty answer', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/101/credentialists', emptyBody: true });
		const run = await runNode(
			ctx.emu,
			{
				resource: 'solution',
				operation: 'getConnectionSettings',
				solutionId: byId('id', 101),
				...FAST,
			},
			{ continueOnFail: true },
		);
		expect(run.json[0].complete).toBeUndefined();
		expect(run.json[0].error).toMatch(/connection settings could not be read/);
	});

	it('Installation → Create: an empty connection-settings answer is no green light: nothing is installed', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/101/credentialists', emptyBody: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'create',
			solutionId: byId('id', 101),
			title: 'Not checked',
			connectionSettingsMode: 'json',
			credentialData: '{"crm": "hubspot"}',
			templateIds: [1011],
			...FAST,
		});
		expect(run.error?.message).toMatch(/connection settings could not be read/);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
		expect(
			[...ctx.emu.state.installations.values()].filter((i) => i.title === 'Not checked'),
		).toHaveLength(0);
	});
});
