/**
 * The rollout guard (Request Options → Canary Items, Stop After Failures) through n8n-core against the
 * emulator: canary items end before any other item starts (the request log's times), a failing canary
 * starts nothing else (nor does any failure in a unit that holds a canary item), the stop holds its counts exactly, items in flight finish (a paused installation
 * is started again), never-started items are paired and reported in each Continue On Fail mode, and
 * bad values are refused before anything is sent.
 */
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runWorkflow } from '../../../harness';
import { byId, installParams, NODE_NAME, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const getById = (requestOptions: INodeParameters): INodeParameters => ({
	resource: 'installation',
	operation: 'get',
	installationId: byId('id', '={{ $json.id }}'),
	requestOptions,
});

type OnError = 'continueErrorOutput' | 'continueRegularOutput' | 'stopWorkflow';

async function run(parameters: INodeParameters, inputItems: IDataObject[], onError: OnError) {
	const before = ctx.emu.requests.length;
	const result = await runWorkflow({
		nodeTypes: [new AlbatoSolutions()],
		nodes: [{ name: NODE_NAME, type: 'albatoSolutions', parameters, onError }],
		inputItems,
		credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
	});
	const [success, failed] = [result.outputAt(NODE_NAME, 0), result.outputAt(NODE_NAME, 1)];
	return {
		success,
		failed,
		error: result.error(NODE_NAME) as (Error & { description?: string }) | undefined,
		requests: ctx.emu.requests.slice(before),
	};
}

const ids = (items: INodeExecutionData[]) => items.map((item) => item.pairedItem);
const MISSING = 999999;
/** An item the guard never started, as the error output carries it on every n8n (version 3). */
const notAttempted = (item: INodeExecutionData) =>
	String(item.json.error).startsWith('Not attempted:') && item.json.details === undefined;
const NOTHING_SENT = expect.stringMatching(/^Nothing was sent for this item\./);

describe('Canary Items', () => {
	it('no other item’s request starts before the last canary item has ended', async () => {
		const delayMs = 150;
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation/5001', delayMs, times: 3 });
		const items = [...Array(3).fill({ id: 5001 }), ...Array(6).fill({ id: 5002 })] as IDataObject[];
		const result = await run(getById({ canaryItems: 3, concurrency: 8 }), items, 'stopWorkflow');
		expect(result.error).toBeUndefined();
		expect(result.success).toHaveLength(9);
		const at = (path: string) =>
			result.requests.filter((r) => r.path === path).map((r) => Date.parse(r.at));
		const canaryEnded = Math.max(...at('/solution/installation/5001')) + delayMs;
		const others = at('/solution/installation/5002');
		expect(others).toHaveLength(6);
		// The log's times are whole milliseconds: a few ms of slack for rounding.
		for (const started of others) expect(started).toBeGreaterThanOrEqual(canaryEnded - 5);
	});

	it('a failing canary starts nothing else; the others are not attempted, on the error output', async () => {
		const items = [{ id: MISSING }, { id: 5001 }, { id: 5002 }, { id: 5002 }];
		const result = await run(getById({ canaryItems: 2 }), items, 'continueErrorOutput');
		expect(result.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
			'GET /solution/installation/5001',
			`GET /solution/installation/${MISSING}`,
		]);
		expect(ids(result.success)).toEqual([{ item: 1 }]);
		expect(ids(result.failed)).toEqual([{ item: 0 }, { item: 2 }, { item: 3 }]);
		const message =
			'Not attempted: canary item 1 failed (Canary Items 2). 1 done, 1 failed, 2 not attempted';
		// At version 3 the error output carries `{ error, message }` (the counts are in the text).
		for (const item of result.failed.slice(1)) {
			expect(item.json).toMatchObject({ error: message, message: NOTHING_SENT });
			expect(item.json.details).toBeUndefined();
		}
	});

	it('with Canary Items at or above the item count, every item is a canary', async () => {
		const result = await run(
			getById({ canaryItems: 10 }),
			[{ id: 5001 }, { id: 5002 }],
			'stopWorkflow',
		);
		expect(result.error).toBeUndefined();
		expect(ids(result.success)).toEqual([{ item: 0 }, { item: 1 }]);
	});
});

describe('Stop After Failures', () => {
	/** 10 items, one at a time; items 1, 3, 5 and 7 fail (404). */
	const items = Array.from({ length: 10 }, (_x, i) => ({
		id: [1, 3, 5, 7].includes(i) ? MISSING : 5001,
	}));
	const options = { stopAfterFailures: '2', concurrency: 1 };
	const message =
		'Not attempted: Stop After Failures (2) was exceeded. 3 done, 3 failed, 4 not attempted';

	it('a count: the third failure stops it, exactly (error output: paired, notAttempted)', async () => {
		const result = await run(getById(options), items, 'continueErrorOutput');
		expect(result.requests).toHaveLength(6);
		expect(ids(result.success)).toEqual([{ item: 0 }, { item: 2 }, { item: 4 }]);
		expect(ids(result.failed)).toEqual([1, 3, 5, 6, 7, 8, 9].map((item) => ({ item })));
		expect(result.failed.slice(0, 3).every((item) => item.json.notAttempted === undefined)).toBe(
			true,
		);
		for (const item of result.failed.slice(3)) {
			expect(item.json).toMatchObject({ error: message, message: NOTHING_SENT });
			expect(item.json.details).toBeUndefined();
		}
	});

	it('plain Continue: the same items, in item order, on the success output', async () => {
		const result = await run(getById(options), items, 'continueRegularOutput');
		expect(result.requests).toHaveLength(6);
		expect(ids(result.success)).toEqual(Array.from({ length: 10 }, (_x, item) => ({ item })));
		const flag = (item: INodeExecutionData) =>
			(item.json.details as IDataObject | undefined)?.notAttempted;
		expect(result.success.map((item) => flag(item) ?? false)).toEqual([
			...Array(6).fill(false),
			...Array(4).fill(true),
		]);
		expect(result.success[6].json.error).toBe(message);
	});

	it('without Continue On Fail: the node fails with the guard’s message and the first failure', async () => {
		const result = await run(getById(options), items, 'stopWorkflow');
		expect(result.requests).toHaveLength(2);
		expect(result.error?.message).toBe(
			'Not attempted: item 2 failed (no Continue On Fail). 1 done, 1 failed, 8 not attempted',
		);
		expect(result.error?.description).toMatch(/^The first failure: item 1: /);
		expect(result.error?.description).toContain(
			'Items not attempted (nothing sent for them): 2, 3, 4, 5, 6, 7, 8, 9.',
		);
	});

	it('a percentage of the items finished so far', async () => {
		// 20 items; 10 and 12 fail: 1 of 11 (9.1 %) is within 10 %, 2 of 13 (15.4 %) is not.
		const many = Array.from({ length: 20 }, (_x, i) => ({
			id: [10, 12].includes(i) ? MISSING : 5002,
		}));
		const result = await run(
			getById({ stopAfterFailures: '10%', concurrency: 1 }),
			many,
			'continueErrorOutput',
		);
		expect(result.requests).toHaveLength(13);
		expect(result.success).toHaveLength(11);
		expect(result.failed.filter(notAttempted)).toHaveLength(7);
		expect(result.failed[2].json.error).toBe(
			'Not attempted: Stop After Failures (10%) was exceeded. 11 done, 2 failed, 7 not attempted',
		);
	});

	it('under Items in Flight Auto the items in flight finish, and no other starts', async () => {
		// 40 items, all failing: the first wave (8) is in flight when the first failure stops the run.
		const all = Array.from({ length: 40 }, () => ({ id: MISSING }));
		const result = await run(getById({ stopAfterFailures: '0' }), all, 'continueErrorOutput');
		const sent = result.requests.length;
		expect(sent).toBeGreaterThanOrEqual(1);
		expect(sent).toBeLessThanOrEqual(8);
		expect(result.failed).toHaveLength(40);
		expect(result.failed.filter(notAttempted)).toHaveLength(40 - sent);
		expect(ids(result.failed)).toEqual(Array.from({ length: 40 }, (_x, item) => ({ item })));
	});
});

describe('Canary Items with Bundle Data → Update (a canary unit)', () => {
	it('a failure anywhere in the canary installation’s unit starts no other installation', async () => {
		// Canary Items 1: item 0 is the canary; item 1 is in the same installation, so the same unit.
		const result = await run(
			{
				resource: 'bundleData',
				operation: 'update',
				installationId: byId('id', '={{ $json.installation }}'),
				bundleId: '={{ $json.bundle }}',
				stepId: '={{ $json.step }}',
				fieldValuesMode: 'json',
				fieldValues: '={{ JSON.stringify($json.values) }}',
				ifActive: 'pauseAndResume',
				requestOptions: { canaryItems: 1 },
			},
			[
				{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Canary' } },
				{ installation: 5001, bundle: 7001, step: 9001, values: { noSuchField: 'x' } },
				{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'Never' } },
			],
			'continueErrorOutput',
		);
		const calls = result.requests.map((r) => `${r.method} ${r.path}`);
		expect(calls.filter((call) => /\/(5002|9006)$/.test(call))).toEqual([]);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
		expect(ids(result.success)).toEqual([{ item: 0 }]);
		expect(ids(result.failed)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(result.failed[1].json).toMatchObject({
			error:
				'Not attempted: item 2 failed, run together with canary item 1 (Canary Items 1). 1 done, 1 failed, 1 not attempted',
		});
	});
});

describe('Stop After Failures with Bundle Data → Update (each installation a unit)', () => {
	it('the installation in flight finishes and is started again; the next one is not attempted', async () => {
		// A third installation (paused), to be the unit that never starts.
		const third = await runNode(ctx.emu, installParams('Third'));
		const thirdId = third.json[0].id as number;
		const thirdStep = [...ctx.emu.state.bundles.values()].find((b) => b.installationId === thirdId)!
			.stepIds[0];
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', delayMs: 200 });
		const result = await run(
			{
				resource: 'bundleData',
				operation: 'update',
				installationId: byId('id', '={{ $json.installation }}'),
				bundleId: '={{ $json.bundle }}',
				stepId: '={{ $json.step }}',
				fieldValuesMode: 'json',
				fieldValues: '={{ JSON.stringify($json.values) }}',
				ifActive: 'pauseAndResume',
				requestOptions: { stopAfterFailures: '0', concurrency: 2 },
			},
			[
				{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Slow' } },
				{ installation: 5002, bundle: 7003, step: 9006, values: { noSuchField: 'x' } },
				{ installation: thirdId, bundle: 0, step: thirdStep, values: { subject: 'Never' } },
			].map((item, i) =>
				i === 2
					? {
							...item,
							bundle: [...ctx.emu.state.bundles.values()].find((b) => b.installationId === thirdId)!
								.id,
						}
					: item,
			),
			'continueErrorOutput',
		);
		const calls = result.requests.map((r) => `${r.method} ${r.path}`);
		expect(
			calls.filter((call) => call.endsWith(`/${thirdId}`) || call.endsWith(`/${thirdStep}`)),
		).toEqual([]);
		// 5001 was paused for its update: its PUT finished, and it was started again.
		expect(calls.indexOf('PLAY /solution/installation/5001')).toBeGreaterThan(
			calls.indexOf('PUT /bundle/data/9002'),
		);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
		expect(ids(result.success)).toEqual([{ item: 0 }]);
		expect(result.success[0].json).toMatchObject({ pausedForUpdate: true, installationStatus: 1 });
		expect(ids(result.failed)).toEqual([{ item: 1 }, { item: 2 }]);
		expect(result.failed[1].json).toMatchObject({
			error:
				'Not attempted: Stop After Failures (0) was exceeded. 1 done, 1 failed, 1 not attempted',
		});
	});
});

describe('bad values are refused before anything is sent', () => {
	it.each([
		[
			{ stopAfterFailures: '-1' },
			'Request Options → Stop After Failures must be a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%), got "-1"',
		],
		[
			{ stopAfterFailures: '1.5' },
			'Request Options → Stop After Failures must be a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%), got "1.5"',
		],
		[
			{ stopAfterFailures: '101%' },
			'Request Options → Stop After Failures must be a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%), got "101%"',
		],
		[
			{ stopAfterFailures: '-2%' },
			'Request Options → Stop After Failures must be a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%), got "-2%"',
		],
		[
			{ stopAfterFailures: 'half' },
			'Request Options → Stop After Failures must be a whole number of failures (e.g. 3) or a percentage from 0 to 100 (e.g. 2%), got "half"',
		],
		[
			{ canaryItems: -1 },
			'Request Options → Canary Items must be a whole number from 0 up, got -1',
		],
		[
			{ canaryItems: 2.5 },
			'Request Options → Canary Items must be a whole number from 0 up, got 2.5',
		],
	])('%j', async (requestOptions, message) => {
		for (const onError of ['stopWorkflow', 'continueErrorOutput'] as const) {
			const result = await run(getById(requestOptions), [{ id: 5001 }, { id: 5002 }], onError);
			expect(result.requests).toEqual([]);
			const text =
				onError === 'stopWorkflow' ? result.error?.message : result.failed[0]?.json.error;
			expect(text).toBe(message);
		}
	});
});
