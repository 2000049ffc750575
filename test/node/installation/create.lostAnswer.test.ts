/**
 * Installation → Create is never duplicated: lost answers, resets, 503s and timeouts on the install
 * POST.
 */
import { installParams, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const FAST = { requestOptions: { maxRetries: 3, retryBudget: 10 } };
const install = (title: string) => installParams(title, FAST);
const installationsTitled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);

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
