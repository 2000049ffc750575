/**
 * Bundle Data → Update with "Pause, Update, Then Start Again": the calls made, failures, and the
 * installation started again.
 */
import { guardedUpdateFromItems, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const FAST = { requestOptions: { maxRetries: 3, retryBudget: 10 } };
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
