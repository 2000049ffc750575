/**
 * Installation → Create under faults: an unusable answer is a lost answer, a 429 on POST is waited
 * out and sent again, Refuse Duplicate Title after an unknown outcome.
 */
import type { IDataObject } from 'n8n-workflow';

import { installParams, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const FAST = { requestOptions: { maxRetries: 3, retryBudget: 10 } };
const install = (title: string, options: IDataObject = {}) => ({
	...installParams(title, FAST),
	options: { lostAnswerCheck: 0.5, ...options },
});
const installationsTitled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);
const posts = (calls: string[]) => calls.filter((call) => call.startsWith('POST'));

describe('Installation → Create: an answer that arrives but cannot be used is a lost answer', () => {
	it('2xx with a malformed body after installing: finds the installation, does not report a failure', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', malformedJson: true });
		const run = await runNode(ctx.emu, install('Garbled Inc'));
		expect(run.error).toBeUndefined();
		expect(posts(run.calls)).toHaveLength(1);
		expect(installationsTitled('Garbled Inc')).toHaveLength(1);
		expect(run.json[0]).toMatchObject({
			id: installationsTitled('Garbled Inc')[0].id,
			title: 'Garbled Inc',
		});
	});

	it('5xx after installing (gateway answer, body cut): finds the installation', async () => {
		ctx.emu.faults.add({
			method: 'POST',
			path: '/solution/102/installation',
			malformedJson: true,
			status: 502,
		});
		const run = await runNode(ctx.emu, install('Gateway Inc'));
		expect(run.error).toBeUndefined();
		expect(posts(run.calls)).toHaveLength(1);
		expect(installationsTitled('Gateway Inc')).toHaveLength(1);
		expect(run.json[0].id).toBe(installationsTitled('Gateway Inc')[0].id);
	});

	it('2xx with an empty body after installing (no installation ID): finds the installation', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', emptyBody: true });
		const run = await runNode(ctx.emu, install('Silent Inc'));
		expect(run.error).toBeUndefined();
		expect(posts(run.calls)).toHaveLength(1);
		expect(installationsTitled('Silent Inc')).toHaveLength(1);
		expect(run.json[0].id).toBe(installationsTitled('Silent Inc')[0].id);
	});

	it('5xx that installed nothing: not sent again; "outcome unknown" naming the 503', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', status: 503 });
		const run = await runNode(ctx.emu, install('Busy Corp'));
		expect(run.error?.message).toBe(
			'The outcome of installing "Busy Corp" is unknown: the service answered 503',
		);
		expect(run.error?.description).toMatch(/answered 503/);
		expect(posts(run.calls)).toHaveLength(1);
		expect(installationsTitled('Busy Corp')).toHaveLength(0);
	});

	it('a 4xx refusal is not a lost answer: the error at once, no list re-reads', async () => {
		const run = await runNode(ctx.emu, { ...install('Refused'), templateIds: [9999] });
		expect(run.error?.httpCode).toMatch(/^4/);
		expect(run.calls.filter((call) => call === 'GET /solution/installation')).toHaveLength(1);
	});
});

describe('429 on a POST was not applied: waits as told and sends it again, within the budget', () => {
	it('Installation → Create', async () => {
		ctx.emu.faults.add({
			method: 'POST',
			path: '/solution/102/installation',
			status: 429,
			retryAfterSeconds: 0,
			times: 2,
		});
		const run = await runNode(ctx.emu, install('Rate limited Ltd'));
		expect(run.error).toBeUndefined();
		expect(posts(run.calls)).toHaveLength(3);
		expect(installationsTitled('Rate limited Ltd')).toHaveLength(1);
	});

	it('past the budget: the 429 error, nothing installed', async () => {
		ctx.emu.faults.add({
			method: 'POST',
			path: '/solution/102/installation',
			status: 429,
			retryAfterSeconds: 5,
			times: 3,
		});
		const run = await runNode(ctx.emu, {
			...install('Too busy Ltd'),
			requestOptions: { maxRetries: 3, retryBudget: 1 },
		});
		expect(run.error?.httpCode).toBe('429');
		expect(posts(run.calls)).toHaveLength(1);
		expect(installationsTitled('Too busy Ltd')).toHaveLength(0);
	});
});

describe('Refuse Duplicate Title after an install whose outcome is unknown', () => {
	it('a later item with the same title is refused while the first may still appear', async () => {
		ctx.emu.setListLag({ reads: 20 });
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const params = {
			...install('Acme unknown', { refuseDuplicateTitle: true }),
			requestOptions: { ...FAST.requestOptions, concurrency: 1 },
		};
		const run = await runNode(ctx.emu, params, { inputItems: [{}, {}], continueOnFail: true });
		expect(run.json[0].error).toMatch(/outcome of installing "Acme unknown" is unknown/);
		expect(run.json[1].error).toMatch(/Acme unknown/);
		expect(posts(run.calls)).toHaveLength(1);
		expect(installationsTitled('Acme unknown')).toHaveLength(1);
	});

	it('a later execution too (same process)', async () => {
		ctx.emu.setListLag({ reads: 20 });
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const params = install('Acme rerun', { refuseDuplicateTitle: true });
		const first = await runNode(ctx.emu, params);
		expect(first.error?.message).toMatch(/is unknown/);
		const second = await runNode(ctx.emu, params);
		expect(second.error?.message).toMatch(/Acme rerun/);
		expect(installationsTitled('Acme rerun')).toHaveLength(1);
	});
});
