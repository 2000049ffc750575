/**
 * Every fault kind of the emulator, driven through n8n-core's engine: the calls made, the final state,
 * no duplicates, statuses restored. (The fault table in docs/reliability.md comes from these cases.)
 */
import { byId, guardedUpdateFromItems, installParams, runNode, useEmulator } from './setup';

const ctx = useEmulator();

const FAST = { requestOptions: { maxRetries: 3, retryBudget: 10 } };
const start = (id: number, extra = {}) => ({
	resource: 'installation',
	operation: 'start',
	installationId: byId('id', id),
	...FAST,
	...extra,
});
const install = (title: string) => installParams(title, FAST);
const installationsTitled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);

describe('retries of safe calls', () => {
	it('429 with Retry-After: waits and retries PLAY', async () => {
		ctx.emu.faults.add({
			method: 'PLAY',
			path: '/solution/installation/5002',
			status: 429,
			retryAfterSeconds: 0,
			times: 2,
		});
		const run = await runNode(ctx.emu, start(5002));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(Array(3).fill('PLAY /solution/installation/5002'));
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(1);
	});

	it.each([502, 503, 504])('%i: retried with backoff, then succeeds', async (status) => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', status });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
			...FAST,
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['GET /solution/apps', 'GET /solution/apps']);
	});

	it('a reset connection before the answer is retried for PAUSE', async () => {
		ctx.emu.faults.add({ method: 'PAUSE', path: '/solution/installation/5001', reset: 'before' });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'pause',
			installationId: byId('id', 5001),
			...FAST,
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toHaveLength(2);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(0);
	});

	it('gives up after Max Retries and says how often it tried', async () => {
		ctx.emu.faults.add({
			method: 'PLAY',
			path: '/solution/installation/5002',
			status: 503,
			times: 10,
		});
		const run = await runNode(
			ctx.emu,
			start(5002, { requestOptions: { maxRetries: 2, retryBudget: 10 } }),
		);
		expect(run.calls).toHaveLength(3);
		expect(run.error?.httpCode).toBe('503');
		expect(run.error?.description).toMatch(/after 2 retries/);
	});

	it('never retries a 4xx', async () => {
		const run = await runNode(ctx.emu, start(999));
		expect(run.calls).toEqual(['PLAY /solution/installation/999']);
		expect(run.error?.httpCode).toBe('404');
	});

	it('stops retrying when the time budget would be exceeded', async () => {
		ctx.emu.faults.add({
			method: 'PLAY',
			path: '/solution/installation/5002',
			status: 429,
			retryAfterSeconds: 5,
			times: 3,
		});
		const run = await runNode(
			ctx.emu,
			start(5002, { requestOptions: { maxRetries: 5, retryBudget: 1 } }),
		);
		expect(run.calls).toHaveLength(1);
		expect(run.error?.httpCode).toBe('429');
	});
});

describe('Installation → Create is never duplicated', () => {
	it('answer lost after the service installed: finds the installation instead of installing again', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const run = await runNode(ctx.emu, install('Lost answer Inc'));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			'GET /solution/102/credentialists',
			'GET /solution/installation',
			'POST /solution/102/installation',
			'GET /solution/installation',
		]);
		expect(installationsTitled('Lost answer Inc')).toHaveLength(1);
		expect(run.json[0]).toMatchObject({
			id: installationsTitled('Lost answer Inc')[0].id,
			title: 'Lost answer Inc',
		});
	});

	it('connection lost before the service installed: not sent again; "outcome unknown" after re-checking the list', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'before' });
		const run = await runNode(ctx.emu, {
			...install('Never arrived Ltd'),
			options: { lostAnswerCheck: 0.5 },
		});
		expect(run.error?.message).toBe(
			'The outcome of installing "Never arrived Ltd" is unknown: the service\'s answer was lost',
		);
		expect(run.error?.description).toMatch(
			/No new installation titled "Never arrived Ltd" appeared in 4 reads of the list over 0.5 s/,
		);
		expect(run.error?.description).toMatch(
			/Check the end user's installations titled "Never arrived Ltd"/,
		);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
		expect(run.calls.filter((call) => call === 'GET /solution/installation')).toHaveLength(5);
		expect(installationsTitled('Never arrived Ltd')).toHaveLength(0);
	});

	it('a 503 on install is not retried blindly: it may have installed, so the list is checked, then "outcome unknown"', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', status: 503 });
		const run = await runNode(ctx.emu, {
			...install('Busy Corp'),
			options: { lostAnswerCheck: 0.5 },
		});
		expect(run.error?.message).toMatch(/outcome of installing "Busy Corp" is unknown/);
		expect(run.error?.description).toMatch(/answered 503/);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
		expect(installationsTitled('Busy Corp')).toHaveLength(0);
	});

	it('a timeout on install is not retried; the installation the service made meanwhile is found and returned', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', delayMs: 800 });
		const run = await runNode(ctx.emu, {
			...install('Slow Corp'),
			requestOptions: { timeout: 0.3, maxRetries: 3 },
			options: { lostAnswerCheck: 5 },
		});
		expect(run.error).toBeUndefined();
		expect(run.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
		expect(installationsTitled('Slow Corp')).toHaveLength(1);
		expect(run.json[0].id).toBe(installationsTitled('Slow Corp')[0].id);
	});
});

describe('bodies that are not what they should be', () => {
	it('malformed JSON is an error that says so', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', malformedJson: true });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(run.error?.message).toBe('The service answered with a body that is not valid JSON');
	});

	it('200 with success: false is an error', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', successFalse: true });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(run.error).toBeDefined();
		expect(run.error?.httpCode).toBe('200');
	});

	it('a hanging request fails after the timeout with a message that says so', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', delayMs: 1500 });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			requestOptions: { timeout: 0.2, maxRetries: 0 },
		});
		expect(run.error?.message).toBe('The service did not answer within 200 ms');
		expect(run.error?.description).toMatch(/Raise the Timeout option/);
	});
});

describe('Bundle Data → Update: Pause, Update, Then Start Again', () => {
	const update = (
		items: Array<{ installation: number; bundle: number; step: number; values: object }>,
		continueOnFail = false,
	) =>
		runNode(
			ctx.emu,
			guardedUpdateFromItems({ requestOptions: { ...FAST.requestOptions, concurrency: 1 } }), // exact call sequences
			{ inputItems: items, continueOnFail },
		);

	it('one read, one pause and one start per installation, whatever the number of updates', async () => {
		const run = await update([
			{ installation: 5001, bundle: 7001, step: 9001, values: { cf__1b9e04d7aa6c4f12: 55 } },
			{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'Globex says hi' } },
			{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'ACME says hi' } },
			{ installation: 5001, bundle: 7002, step: 9004, values: { tag: 'vip' } },
		]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			'GET /solution/installation/5001',
			'PAUSE /solution/installation/5001',
			'PUT /bundle/data/9001',
			'PUT /bundle/data/9002',
			'PUT /bundle/data/9004',
			'PLAY /solution/installation/5001',
			'GET /solution/installation/5002',
			'PUT /bundle/data/9006',
		]);
		expect(
			run.json.map((item) => [item.id, item.pausedForUpdate, item.installationStatus]),
		).toEqual([
			[9001, true, 1],
			[9006, false, 0],
			[9002, true, 1],
			[9004, true, 1],
		]);
		expect(run.pairedItems).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(0);
	});

	it('starts the installation again even when an update fails, and says which failed', async () => {
		const run = await update(
			[
				{ installation: 5001, bundle: 7001, step: 9001, values: { unknownField: 1 } },
				{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Still works' } },
			],
			true,
		);
		expect(run.calls.at(-1)).toBe('PLAY /solution/installation/5001');
		expect(run.json[0].error).toMatch(/unknownField/);
		expect(run.json[1]).toMatchObject({ id: 9002, installationStatus: 1 });
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
	});

	it('without continueOnFail the error is thrown, after the installation is started again', async () => {
		const run = await update([
			{ installation: 5001, bundle: 7001, step: 9001, values: { unknownField: 1 } },
		]);
		expect(run.error?.message).toMatch(/unknownField/);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
	});

	it('a step of another installation is refused before anything is paused', async () => {
		const run = await update([
			{ installation: 5001, bundle: 7003, step: 9006, values: { subject: 'x' } },
		]);
		expect(run.error?.message).toBe(
			'Step 9006 of automation 7003 is not part of installation 5001',
		);
		expect(run.calls).toEqual(['GET /solution/installation/5001']);
	});

	it('a start that fails once is retried, so the installation is not left paused', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: '/solution/installation/5001', status: 503 });
		const run = await update([
			{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'Retry start' } },
		]);
		expect(run.error).toBeUndefined();
		expect(run.calls.filter((call) => call.startsWith('PLAY'))).toHaveLength(2);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
	});
});
