/**
 * Resume: running the same workflow again after a stop continues where it stopped, and customers that
 * were done cost no write. Start and Pause with Skip If Already … send nothing for an installation
 * already in the wanted status (and say so); Ensure converges; Ensure reports every other active
 * installation with the same solution and title (`details.duplicateOf`), and pauses it (from node
 * version 4 on, unless asked not to; before, only when asked).
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../../harness';
import { byId, NODE_NAME, runNode, useEmulator } from '../../support/setup';
import { ensureParams, SUBJECT, writesIn } from './fleetSetup';

const ctx = useEmulator();

async function run(
	parameters: INodeParameters,
	inputItems: IDataObject[],
	onError = 'continueErrorOutput',
	typeVersion?: number,
) {
	const before = ctx.emu.requests.length;
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [
			{
				name: NODE_NAME,
				type: 'albatoSolutions',
				parameters,
				onError: onError as 'continueErrorOutput',
				...(typeVersion ? { typeVersion } : {}),
			},
		],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
	});
	const index = (item: INodeExecutionData) => (item.pairedItem as { item: number }).item;
	const inOrder = (items: INodeExecutionData[]) => items.sort((x, y) => index(x) - index(y));
	return {
		success: inOrder(result.outputAt(NODE_NAME, 0)),
		failed: inOrder(result.outputAt(NODE_NAME, 1)),
		error: result.error(NODE_NAME),
		calls: ctx.emu.requests.slice(before).map((r) => `${r.method} ${r.path}`),
		requests: ctx.emu.requests.slice(before),
	};
}

describe('Start and Pause: Skip If Already …', () => {
	it('Start reads each installation and sends PLAY only to the paused one; the output says which', async () => {
		const result = await runNode(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'start',
				installationId: byId('id', '={{ $json.id }}'),
				options: { skipIfAlready: true },
				requestOptions: { concurrency: 1 },
			},
			{ inputItems: [{ id: 5001 }, { id: 5002 }] },
		);
		expect(result.calls).toEqual([
			'GET /solution/installation/5001',
			'GET /solution/installation/5002',
			'PLAY /solution/installation/5002',
		]);
		expect(result.json.map((json) => [json.id, json.status, json.unchanged])).toEqual([
			[5001, 1, true],
			[5002, 1, false],
		]);
	});

	it('Pause sends PAUSE only to the active one; a second run sends nothing', async () => {
		const pause = {
			resource: 'installation',
			operation: 'pause',
			installationId: byId('id', '={{ $json.id }}'),
			options: { skipIfAlready: true },
		};
		const items = { inputItems: [{ id: 5001 }, { id: 5002 }] };
		const first = await runNode(ctx.emu, pause, items);
		expect(writesIn(first.calls)).toEqual(['PAUSE /solution/installation/5001']);
		const again = await runNode(ctx.emu, pause, items);
		expect(writesIn(again.calls)).toEqual([]);
		expect(again.json.map((json) => json.unchanged)).toEqual([true, true]);
	});
});

describe('a fleet change stopped halfway, fixed, and run again', () => {
	const customers = Array.from({ length: 6 }, (_x, i) => ({
		title: `Customer ${i}`,
		step: SUBJECT.step,
	}));

	it('the rerun writes nothing for the customers that were done, and finishes the others', async () => {
		const parameters = ensureParams('Fleet subject', {
			desiredFields: { field: [{ ...SUBJECT, step: '={{ $json.step }}', value: 'Fleet subject' }] },
			requestOptions: { concurrency: 1, stopAfterFailures: '0' },
		});
		// Customer 2's step is misspelt: it fails, and the stop leaves 3, 4 and 5 not attempted.
		const broken = customers.map((item, i) =>
			i === 2 ? { ...item, step: 'Send welcom email' } : item,
		);
		const first = await run(parameters, broken);
		expect(first.success.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(first.failed.map((item) => item.pairedItem)).toEqual(
			[2, 3, 4, 5].map((item) => ({ item })),
		);
		expect(
			first.failed.slice(1).every((item) => String(item.json.error).startsWith('Not attempted:')),
		).toBe(true);
		for (const title of ['Customer 3', 'Customer 4', 'Customer 5'])
			expect(first.requests.some((r) => JSON.stringify(r.body ?? '').includes(title))).toBe(false);

		const second = await run(parameters, customers);
		expect(second.failed).toEqual([]);
		expect(second.success.map((item) => item.json.unchanged)).toEqual([
			true,
			true,
			false,
			false,
			false,
			false,
		]);
		// No write touches customers 0 and 1: neither their installation, nor its steps.
		const done = [...ctx.emu.state.installations.values()].filter((i) =>
			['Customer 0', 'Customer 1'].includes(i.title),
		);
		const ids = new Set(done.map((i) => String(i.id)));
		const steps = new Set(
			[...ctx.emu.state.bundles.values()]
				.filter((b) => ids.has(String(b.installationId)))
				.flatMap((b) => b.stepIds.map(String)),
		);
		const touched = writesIn(second.calls).filter((call) => {
			const last = call.split('/').at(-1)!;
			return ids.has(last) || steps.has(last);
		});
		expect(touched).toEqual([]);
		expect(
			second.requests.filter((r) => r.method === 'POST').map((r) => (r.body as IDataObject).title),
		).toEqual(['Customer 3', 'Customer 4', 'Customer 5']);
	});
});

describe('Ensure reports the other active copies', () => {
	/** Two active installations titled "Twin" of solution 101 (the older first). */
	async function twins(): Promise<[number, number]> {
		const made: number[] = [];
		for (let i = 0; i < 2; i++) {
			const created = await runNode(ctx.emu, {
				...ensureParams('x'),
				operation: 'create',
				title: 'Twin',
				templateIds: [1011, 1012],
			});
			made.push(created.json[0].id as number);
		}
		for (const id of made) ctx.emu.state.installations.get(id)!.status = 1;
		return made as [number, number];
	}
	const ensureTwin = (extra: INodeParameters = {}) =>
		ensureParams('Twin subject', { title: 'Twin', desiredStatus: 'active', ...extra });

	it('saved at version 3: on the error output, paired, naming both (details.duplicateOf on the success item); nothing paused unless asked', async () => {
		const [older, younger] = await twins();
		const result = await run(ensureTwin(), [{}], 'continueErrorOutput', 3);
		expect(result.success).toHaveLength(1);
		expect(result.success[0].json).toMatchObject({
			installation: { id: older },
			duplicates: [{ duplicateOf: older, installationId: younger, paused: false }],
		});
		expect(result.failed).toHaveLength(1);
		expect(result.failed[0].pairedItem).toEqual({ item: 0 });
		expect(result.failed[0].json).toMatchObject({
			error: `Installation ${younger} duplicates installation ${older} ("Twin"): both are active`,
		});
		expect(Object.keys(result.failed[0].json).sort()).toEqual(['error', 'message']);
		expect(result.calls).not.toContain(`PAUSE /solution/installation/${younger}`);
		expect(ctx.emu.state.installations.get(younger)!.status).toBe(1);
	});

	it.each([
		['Pause Other Active Copies on', { pauseDuplicates: true }],
		['version 4, Pause Other Active Copies not set', {}],
	])(
		'%s: every copy but the oldest paused (kept), and the output says so',
		async (_name, option) => {
			const [older, younger] = await twins();
			const result = await run(ensureTwin({ options: { lostAnswerCheck: 0.5, ...option } }), [{}]);
			expect(ctx.emu.state.installations.size).toBe(5); // nothing deleted
			expect(writesIn(result.calls)).toContain(`PAUSE /solution/installation/${younger}`);
			// The older one was paused only around its field update, and runs.
			expect(ctx.emu.state.installations.get(older)!.status).toBe(1);
			expect(ctx.emu.state.installations.get(younger)!.status).toBe(0);
			expect(result.failed[0].json).toMatchObject({
				error: `Installation ${younger} duplicates installation ${older} ("Twin"): it is now paused`,
			});
			expect(result.success[0].json.duplicates).toMatchObject([{ paused: true }]);
			// The next run has nothing to report: the copy is paused.
			const again = await run(ensureTwin(), [{}]);
			expect(again.failed).toEqual([]);
			expect(again.success[0].json.duplicates).toBeUndefined();
		},
	);

	it('in Preview: reported as it would be, nothing paused', async () => {
		const [, younger] = await twins();
		const result = await run(
			ensureTwin({
				options: { lostAnswerCheck: 0.5, pauseDuplicates: true },
				requestOptions: { preview: true },
			}),
			[{}],
		);
		expect(writesIn(result.calls)).toEqual([]);
		expect(ctx.emu.state.installations.get(younger)!.status).toBe(1);
		expect(result.success[0].json).toMatchObject({
			preview: true,
			duplicates: [{ paused: true, preview: true }],
		});
	});

	it('Pause Other Active Copies off: both stay active, and the copy is reported', async () => {
		const [older, younger] = await twins();
		const result = await run(
			ensureTwin({ options: { lostAnswerCheck: 0.5, pauseDuplicates: false } }),
			[{}],
		);
		expect(result.calls).not.toContain(`PAUSE /solution/installation/${younger}`);
		expect(result.failed[0].json).toMatchObject({
			error: `Installation ${younger} duplicates installation ${older} ("Twin"): both are active`,
		});
	});

	it('without Continue On Fail the report fails the run', async () => {
		const [older, younger] = await twins();
		const result = await run(ensureTwin(), [{}], 'stopWorkflow');
		expect(result.error?.message).toBe(
			`Installation ${younger} duplicates installation ${older} ("Twin"): it is now paused`,
		);
	});
});
