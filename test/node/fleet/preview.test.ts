/**
 * Request Options → Preview, for every writing operation, with the access token and the partner
 * credential: the service is read as usual, no write reaches it (the request log), its state is
 * unchanged, and the output is the real run's (made next, from the same state) plus
 * `preview: true`, except what only the write itself makes (a new ID, a link). Unknown targets fail
 * as they would in a real run. Every writing operation (test/support/operations.ts, its effect
 * read from the node) is run.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { addUsers, installFor, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { nodeOperations, OPERATIONS, prepare, runOperation } from '../../support/operations';
import { byId, type NodeRun, runNode } from '../../support/setup';
import { ensureParams, stateOf, withoutPreview, writesIn } from './fleetSetup';

const ctx = usePartnerEmulator();
const PREVIEW = { requestOptions: { preview: true } };

const WRITING = OPERATIONS.filter((row) => row.effect === 'write');

function expectSameOutput(previewed: NodeRun, real: NodeRun, madeByWrite: string[] = []) {
	expect(real.error).toBeUndefined();
	expect(previewed.json).toHaveLength(real.json.length);
	// The service's own time of the change, wherever it shows (e.g. Ensure's installation after PLAY).
	const timeless = (json: IDataObject) =>
		madeByWrite.includes('dateUpdated')
			? (JSON.parse(
					JSON.stringify(json, (key, value: unknown) =>
						key === 'dateUpdated' ? undefined : value,
					),
				) as IDataObject)
			: json;
	previewed.json.forEach((json, index) => {
		expect(json.preview).toBe(true);
		const shown = timeless(withoutPreview(json));
		const actual = timeless(real.json[index]);
		for (const key of Object.keys(shown)) {
			expect(Object.keys(actual)).toContain(key);
			if (!madeByWrite.includes(key)) expect([key, shown[key]]).toEqual([key, actual[key]]);
		}
		if (madeByWrite.includes('*')) return;
		for (const key of Object.keys(actual))
			if (!madeByWrite.includes(key)) expect(Object.keys(shown)).toContain(key);
	});
	expect(previewed.pairedItems).toEqual(real.pairedItems);
}

describe('Preview (Request Options)', () => {
	it('knows of every operation of the node whether it writes (its effect)', () => {
		expect(OPERATIONS.map((row) => row.key).sort()).toEqual(nodeOperations().sort());
		expect(WRITING.length).toBeGreaterThan(10);
	});

	it.each(WRITING.map((row) => [row.key, row] as const))(
		'%s: no write, state unchanged, the real run’s output',
		async (_key, row) => {
			const made = await prepare(ctx.emu, row);
			const before = stateOf(ctx.emu);
			const previewed = await runOperation(ctx.emu, row, made, PREVIEW);
			expect(previewed.error).toBeUndefined();
			expect(writesIn(previewed.calls)).toEqual([]);
			expect(stateOf(ctx.emu)).toBe(before);
			const real = await runOperation(ctx.emu, row, made);
			expect(writesIn(real.calls).length).toBeGreaterThan(0);
			expectSameOutput(previewed, real, row.madeByWrite);
		},
	);
});

describe('Preview with the partner credential (End User ID per item)', () => {
	/** cust-1 and cust-2, each with a paused installation "Partner <id>" of solution 101. */
	async function customers() {
		await addUsers(ctx.emu, ['cust-1', 'cust-2']);
		for (const id of ['cust-1', 'cust-2']) await installFor(ctx.emu, id, `Partner ${id}`);
		ctx.emu.requests.length = 0;
		return [...ctx.emu.state.installations.values()]
			.filter((installation) => installation.title.startsWith('Partner '))
			.map((installation) => ({ customer: installation.title.slice(8), id: installation.id }));
	}

	const partnerCases: Record<string, INodeParameters> = {
		start: {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', '={{ $json.id }}'),
		},
		ensure: {
			...ensureParams('Partner subject', { templateIds: [1011] }),
			title: '=Partner {{ $json.customer }}',
		},
		update: {
			resource: 'bundleData',
			operation: 'update',
			installationId: byId('id', '={{ $json.id }}'),
			bundleId: '={{ $json.bundle }}',
			stepId: '={{ $json.step }}',
			fieldValuesMode: 'json',
			fieldValues: '{"subject": "Partner preview"}',
			ifActive: 'pauseAndResume',
		},
	};

	it.each(Object.entries(partnerCases))(
		'%s: no write for any customer, the real output',
		async (_name, params) => {
			const items = (await customers()).map((item) => {
				const bundle = [...ctx.emu.state.bundles.values()].find(
					(b) => b.installationId === item.id,
				)!;
				return { ...item, bundle: bundle.id, step: bundle.stepIds[1] };
			});
			const before = stateOf(ctx.emu);
			const previewed = await runPartner(ctx.emu, { ...params, ...PREVIEW }, { inputItems: items });
			expect(previewed.error).toBeUndefined();
			expect(writesIn(previewed.calls)).toEqual([]);
			expect(stateOf(ctx.emu)).toBe(before);
			const real = await runPartner(ctx.emu, params, { inputItems: items });
			expect(writesIn(real.calls).length).toBeGreaterThanOrEqual(2);
			expectSameOutput(previewed, real, ['dateUpdated']);
			expect(previewed.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
		},
	);
});

describe('Preview fails where the real run fails', () => {
	const cases: Array<[string, INodeParameters, IDataObject[]]> = [
		[
			'unknown installation',
			{ resource: 'installation', operation: 'start', installationId: byId('id', 999999) },
			[{}],
		],
		[
			'unknown step (Ensure)',
			ensureParams('x', {
				desiredFields: {
					field: [{ automation: 1011, step: 'No such step', code: 'subject', value: 'x' }],
				},
			}),
			[{ title: 'Leads for ACME' }],
		],
		[
			'unknown solution (Create)',
			{
				resource: 'installation',
				operation: 'create',
				solutionId: byId('id', 999),
				title: 'Nowhere',
				connectionSettingsMode: 'json',
				credentialData: '{}',
				templateIds: [1],
			},
			[{}],
		],
		[
			'a step of another installation (Update)',
			{
				resource: 'bundleData',
				operation: 'update',
				installationId: byId('id', 5001),
				bundleId: 7003,
				stepId: 9006,
				fieldValuesMode: 'json',
				fieldValues: '{"subject": "x"}',
				ifActive: 'pauseAndResume',
			},
			[{}],
		],
	];

	it.each(cases)('%s', async (_name, params, inputItems) => {
		const before = stateOf(ctx.emu);
		const previewed = await runNode(ctx.emu, { ...params, ...PREVIEW }, { inputItems });
		expect(writesIn(previewed.calls)).toEqual([]);
		expect(stateOf(ctx.emu)).toBe(before);
		const real = await runNode(ctx.emu, params, { inputItems });
		expect(previewed.error?.message).toBeDefined();
		expect(previewed.error?.message).toBe(real.error?.message);
	});
});

// The safety net under every operation: test/transport/preview.test.ts.
describe('Preview: reads and bad input', () => {
	it('reading operations run as usual in Preview', async () => {
		const reads: INodeParameters[] = [
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ resource: 'installation', operation: 'get', installationId: byId('id', 5001) },
			{ resource: 'solution', operation: 'getAll', returnAll: true },
			{
				resource: 'bundleData',
				operation: 'getAll',
				installationId: byId('id', 5002),
				scope: 'bundle',
				bundleId: 7003,
			},
		];
		for (const params of reads) {
			const run = await runNode(ctx.emu, { ...params, ...PREVIEW });
			expect(run.error).toBeUndefined();
			expect(run.json.length).toBeGreaterThan(0);
		}
		await addUsers(ctx.emu, ['cust-1']);
		for (const operation of ['get', 'getToken']) {
			const run = await runPartner(ctx.emu, { resource: 'endUser', operation, ...PREVIEW });
			expect(run.error).toBeUndefined();
			expect(writesIn(run.calls)).toEqual([]);
		}
	});

	it('a Preview that is not true or false is refused before anything is sent', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
			requestOptions: { preview: 'yes' },
		});
		expect(run.error?.message).toBe('Request Options → Preview must be true or false, got "yes"');
		expect(run.calls).toEqual([]);
	});
});
