/**
 * Bundle Data → Update with "Pause, Update, Then Start Again" when things half-fail or overlap,
 * through n8n-core against the emulator: each case asserts the calls made and the final state. The
 * fault table rows of docs/reliability.md for the update operation come from here.
 */
import type { INodeParameters } from 'n8n-workflow';

import { VARIANT_CHOICES } from '../../../emulator/render';
import type { FaultRule } from '../../../emulator/types';
import { guardedUpdateFromItems, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

// One item in flight: exact call sequences whatever the default (update.itemsInFlight.test.ts
// covers more).
const NO_RETRIES = { requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 1 } };
const FAST = { requestOptions: { maxRetries: 3, retryBudget: 10, concurrency: 1 } };
const ACME = '/solution/installation/5001';
const SUBJECT_9002 = {
	installation: 5001,
	bundle: 7001,
	step: 9002,
	values: { subject: 'Half-failure proof' },
};
const TAG_9004 = { installation: 5001, bundle: 7002, step: 9004, values: { tag: 'vip' } };
/** The calls of an update of SUBJECT_9002 that pauses ACME, up to and with its PUT. */
const PAUSED_PUT_9002 = [`GET ${ACME}`, `PAUSE ${ACME}`, 'PUT /bundle/data/9002'];

const update = (
	items: object[],
	options: { extra?: INodeParameters; continueOnFail?: boolean } = {},
) =>
	runNode(ctx.emu, guardedUpdateFromItems(options.extra ?? NO_RETRIES), {
		inputItems: items as never,
		continueOnFail: options.continueOnFail,
	});
const fault = (rule: FaultRule) => ctx.emu.faults.add(rule);
const status = (id = 5001) => ctx.emu.state.installations.get(id)?.status;
const value = (step: number, field: string) =>
	ctx.emu.state.bundleData.get(step)?.fields.find((f) => f.name === field)?.value;

/**
 * Runs `action` as soon as the emulator has received a call matching `method` and `path` (log
 * entries are written on arrival), or, with `answered`, once it has handled it (the entry then has
 * its status).
 */
function whenReceived(method: string, path: string, action: () => void, answered = false) {
	const seen = ctx.emu.requests.length;
	const timer = setInterval(() => {
		if (
			ctx.emu.requests
				.slice(seen)
				.some(
					(entry) =>
						entry.method === method && entry.path === path && (!answered || entry.status > 0),
				)
		) {
			clearInterval(timer);
			action();
		}
	}, 2);
	return () => clearInterval(timer);
}

describe('PAUSE half-fails', () => {
	it('applied but the answer lost (no retries left): carries on, the PUT succeeds, PLAY restores', async () => {
		fault({ method: 'PAUSE', path: ACME, reset: 'after' });
		const run = await update([SUBJECT_9002]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`]);
		expect(run.json[0]).toMatchObject({ id: 9002, pausedForUpdate: true, installationStatus: 1 });
		expect(status()).toBe(1);
		expect(value(9002, 'subject')).toBe('Half-failure proof');
	});

	it('applied but the answer lost, with retries: the transport sends PAUSE again (idempotent)', async () => {
		fault({ method: 'PAUSE', path: ACME, reset: 'after' });
		const run = await update([SUBJECT_9002], { extra: FAST });
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9002',
			`PLAY ${ACME}`,
		]);
		expect(status()).toBe(1);
	});

	it('applied but the answer unreadable (malformed JSON): confirmed by a read, carries on and restores', async () => {
		fault({ method: 'PAUSE', path: ACME, malformedJson: true });
		const run = await update([SUBJECT_9002]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			`GET ${ACME}`,
			'PUT /bundle/data/9002',
			`PLAY ${ACME}`,
		]);
		expect(status()).toBe(1);
	});

	it.each([
		['200 success: false', { successFalse: true }],
		['connection lost before it arrived', { reset: 'before' as const }],
	])(
		'not applied (%s): the PUT is refused as active, so it pauses again and retries',
		async (_label, rule) => {
			fault({ method: 'PAUSE', path: ACME, ...rule });
			const run = await update([SUBJECT_9002]);
			expect(run.error).toBeUndefined();
			expect(run.calls).toEqual([
				`GET ${ACME}`,
				`PAUSE ${ACME}`,
				'PUT /bundle/data/9002',
				`PAUSE ${ACME}`,
				'PUT /bundle/data/9002',
				`PLAY ${ACME}`,
			]);
			expect(ctx.emu.requests.map((entry) => entry.status)).toEqual([
				200,
				expect.any(Number),
				422,
				200,
				200,
				200,
			]);
			expect(status()).toBe(1);
			expect(value(9002, 'subject')).toBe('Half-failure proof');
		},
	);

	it('503 after the retries: the items fail with it, and PLAY is still sent (a 5xx may have been applied)', async () => {
		fault({ method: 'PAUSE', path: ACME, status: 503 });
		const run = await update([SUBJECT_9002, TAG_9004], { continueOnFail: true });
		expect(run.calls).toEqual([`GET ${ACME}`, `PAUSE ${ACME}`, `PLAY ${ACME}`]);
		expect(run.json.map((item) => item.httpCode)).toEqual(['503', '503']);
		expect(status()).toBe(1);
		expect(value(9002, 'subject')).toBe('Welcome aboard');
	});

	it('PAUSE and then PLAY fail: the failed items also say the installation may be left paused, once', async () => {
		fault({ method: 'PAUSE', path: ACME, status: 503 });
		fault({ method: 'PLAY', path: ACME, status: 503 });
		const run = await update([SUBJECT_9002, TAG_9004], { continueOnFail: true });
		expect(run.calls).toEqual([`GET ${ACME}`, `PAUSE ${ACME}`, `PLAY ${ACME}`]);
		expect(run.json).toHaveLength(2);
		for (const item of run.json) {
			expect(item.error).toBe('Emulated fault: 503');
			expect(
				String(item.message).match(
					/Also: Installation 5001 was paused for the update and could not be started again/g,
				),
			).toHaveLength(1);
		}
	});

	it('installation removed between the read and the PAUSE: 404, nothing started, nothing sent after', async () => {
		fault({ method: 'PAUSE', path: ACME, delayMs: 300 });
		const stop = whenReceived('PAUSE', ACME, () => ctx.emu.removeInstallation(5001));
		const run = await update([SUBJECT_9002]).finally(stop);
		expect(run.error?.httpCode).toBe('404');
		expect(run.calls).toEqual([`GET ${ACME}`, `PAUSE ${ACME}`]);
		expect(status()).toBeUndefined();
	});
});

describe('PLAY half-fails', () => {
	/**
	 * Updates SUBJECT_9002: a success, started again, with `afterPlay` the call after the first PLAY.
	 */
	async function expectStartedAgain(afterPlay: string) {
		const run = await update([SUBJECT_9002]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`, afterPlay]);
		expect(run.json[0]).toMatchObject({ id: 9002, pausedForUpdate: true, installationStatus: 1 });
		expect(run.json[0]).not.toHaveProperty('restartError');
		expect(status()).toBe(1);
	}

	it('answer unreadable (malformed JSON): a read confirms it started; no second PLAY, the update stays a success', async () => {
		fault({ method: 'PLAY', path: ACME, malformedJson: true });
		await expectStartedAgain(`GET ${ACME}`);
	});

	it.each([
		['answer lost (reset after), no transport retries left', { reset: 'after' as const }],
		['200 success: false', { successFalse: true }],
	])('%s: PLAY is sent once more; the update stays a success', async (_label, rule) => {
		fault({ method: 'PLAY', path: ACME, ...rule });
		await expectStartedAgain(`PLAY ${ACME}`);
	});

	it('restart fails for good, Continue On Fail: the updates stay successes and say the restart failed', async () => {
		fault({ method: 'PLAY', path: ACME, status: 503, times: 5 });
		const run = await update([SUBJECT_9002, TAG_9004], { continueOnFail: true });
		expect(run.error).toBeUndefined();
		expect(run.calls.filter((call) => call.startsWith('PLAY'))).toHaveLength(1);
		expect(run.json).toHaveLength(2);
		for (const item of run.json) {
			expect(item).toMatchObject({ pausedForUpdate: true, installationStatus: 0 });
			expect(item.error).toBeUndefined();
			expect(item.restartError).toMatch(
				/Installation 5001 was paused for the update and could not be started again: Emulated fault: 503.*Installation → Start/,
			);
		}
		expect(run.json.map((item) => item.id)).toEqual([9002, 9004]);
		expect(status()).toBe(0);
		expect(value(9004, 'tag')).toBe('vip');
	});

	it('restart fails for good, without Continue On Fail: the run fails with the restart error, naming the applied items', async () => {
		fault({ method: 'PLAY', path: ACME, status: 503, times: 5 });
		const run = await update([SUBJECT_9002, TAG_9004]);
		expect(run.error?.message).toBe(
			'Installation 5001 was paused for the update and could not be started again: Emulated fault: 503',
		);
		expect(run.error?.description).toMatch(
			/^The updates of items 0, 1 were applied: step 9002 \(subject\); step 9004 \(tag\)\. Start it with Installation → Start\./,
		);
		expect(value(9002, 'subject')).toBe('Half-failure proof');
	});

	it('a PLAY answered 200 with the installation still paused is sent once more, then is a failed restart', async () => {
		fault({ method: 'PLAY', path: ACME, answerAsGet: true });
		const once = await update([SUBJECT_9002]);
		expect(once.error).toBeUndefined();
		expect(once.calls.filter((call) => call.startsWith('PLAY'))).toHaveLength(2);
		expect(once.json[0]).toMatchObject({ pausedForUpdate: true, installationStatus: 1 });
		expect(status()).toBe(1);

		fault({ method: 'PLAY', path: ACME, answerAsGet: true, times: 2 });
		const twice = await update([SUBJECT_9002], { continueOnFail: true });
		expect(twice.error).toBeUndefined();
		expect(twice.calls.filter((call) => call.startsWith('PLAY'))).toHaveLength(2);
		expect(twice.json[0]).toMatchObject({ pausedForUpdate: true, installationStatus: 0 });
		expect(twice.json[0].restartError).toMatch(
			/Installation 5001 was paused for the update and could not be started again: the service answered PLAY twice, but the installation is still paused/,
		);
		expect(status()).toBe(0);
	});

	it('installation removed between the PUT and the PLAY: the update stays a success, marked removed', async () => {
		fault({ method: 'PLAY', path: ACME, delayMs: 300 });
		const stop = whenReceived('PLAY', ACME, () => ctx.emu.removeInstallation(5001));
		const run = await update([SUBJECT_9002]).finally(stop);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`]);
		expect(run.json[0]).toMatchObject({
			id: 9002,
			installationRemoved: true,
			installationStatus: null,
		});
	});

	it('installation removed between the PAUSE and the PUT: the item fails with 404, PLAY finds it gone', async () => {
		fault({ method: 'PUT', path: '/bundle/data/9002', delayMs: 300 });
		const stop = whenReceived('PUT', '/bundle/data/9002', () => ctx.emu.removeInstallation(5001));
		const run = await update([SUBJECT_9002], { continueOnFail: true }).finally(stop);
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`]);
		expect(run.json[0]).toMatchObject({ httpCode: '404' });
	});
});

describe('another execution starts the installation again', () => {
	it('PUT refused with "pause first": pauses again, retries, and starts it again at the end', async () => {
		fault({ method: 'PUT', path: '/bundle/data/9002', delayMs: 200 });
		const stop = whenReceived(
			'PUT',
			'/bundle/data/9002',
			() => (ctx.emu.state.installations.get(5001)!.status = 1),
		);
		const run = await update([SUBJECT_9002]).finally(stop);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			...PAUSED_PUT_9002,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9002',
			`PLAY ${ACME}`,
		]);
		expect(status()).toBe(1);
		expect(value(9002, 'subject')).toBe('Half-failure proof');
	});

	it('seen paused at the read, started by someone else before the PUT: this execution pauses it, so it starts it again', async () => {
		fault({ method: 'PUT', path: '/bundle/data/9006', delayMs: 200 });
		const stop = whenReceived(
			'PUT',
			'/bundle/data/9006',
			() => (ctx.emu.state.installations.get(5002)!.status = 1),
		);
		const run = await update([
			{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'Globex' } },
		]).finally(stop);
		expect(run.error).toBeUndefined();
		const globex = '/solution/installation/5002';
		// The second GET: a refused PUT alone does not make it pause an installation it saw paused (it
		// may be a field error).
		expect(run.calls).toEqual([
			`GET ${globex}`,
			'PUT /bundle/data/9006',
			`GET ${globex}`,
			`PAUSE ${globex}`,
			'PUT /bundle/data/9006',
			`PLAY ${globex}`,
		]);
		expect(run.json[0]).toMatchObject({ pausedForUpdate: true, installationStatus: 1 });
		expect(status(5002)).toBe(1);
	});

	it('a 422 that is not "pause first" is not answered with another pause', async () => {
		fault({ method: 'PUT', path: '/bundle/data/9002', status: 422 });
		const run = await update([SUBJECT_9002], { continueOnFail: true });
		expect(run.json[0]).toMatchObject({ error: 'Emulated fault: 422', httpCode: '422' });
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`]);
	});

	it('kept active by someone else on every try: gives up after 5 pauses, and still restores', async () => {
		// Really active at every PUT: someone starts it again right after each of our pauses.
		const active = { stop: () => undefined as void };
		const keepActive = () => {
			const seen = ctx.emu.requests.length;
			const timer = setInterval(() => {
				for (const entry of ctx.emu.requests.slice(seen))
					if (entry.method === 'PAUSE' && entry.status === 200)
						ctx.emu.state.installations.get(5001)!.status = 1;
			}, 1);
			active.stop = () => clearInterval(timer);
		};
		fault({ method: 'PUT', path: '/bundle/data/9002', delayMs: 30, times: 10 });
		keepActive();
		const run = await update([SUBJECT_9002], { continueOnFail: true }).finally(() => active.stop());
		expect(run.json[0].error).toMatch(/pause the installation first/);
		expect(run.calls.filter((call) => call.startsWith('PUT'))).toHaveLength(5);
		expect(run.calls.filter((call) => call.startsWith('PAUSE'))).toHaveLength(5);
		expect(run.calls.at(-1)).toBe(`PLAY ${ACME}`);
		expect(status()).toBe(1);
	});

	it('two overlapping executions on the same installation: both updates applied, active at the end', async () => {
		// Execution A pauses and finishes quickly; B reads "paused" (A's pause), and its PUT is handled
		// only after A has started the installation again.
		fault({ method: 'PUT', path: '/bundle/data/9002', delayMs: 300 });
		fault({ method: 'PUT', path: '/bundle/data/9004', delayMs: 800 });
		let b: ReturnType<typeof update> | undefined;
		const started = new Promise<void>((resolve) => {
			const stop = whenReceived(
				'PAUSE',
				ACME,
				() => {
					b = update([TAG_9004]);
					stop();
					resolve();
				},
				true,
			);
		});
		const a = await update([SUBJECT_9002]);
		await started;
		const second = await b!;
		expect(a.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(value(9002, 'subject')).toBe('Half-failure proof');
		expect(value(9004, 'tag')).toBe('vip');
		expect(status()).toBe(1);
		// B's own pause came after its refused PUT; its PLAY is the last call.
		const log = ctx.emu.requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`);
		expect(log.filter((line) => line === 'PUT /bundle/data/9004 422')).toHaveLength(1);
		expect(log.at(-1)).toBe(`PLAY ${ACME} 200`);
	});
});

describe('status as the service sends it', () => {
	it('status "1"/"0" as strings: paused and started like numbers', async () => {
		ctx.emu.setVariants({ statusShape: 'string' });
		const run = await update([
			SUBJECT_9002,
			{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'G' } },
		]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			...PAUSED_PUT_9002,
			`PLAY ${ACME}`,
			'GET /solution/installation/5002',
			'PUT /bundle/data/9006',
		]);
		expect(run.json.map((item) => item.installationStatus)).toEqual([1, 0]);
	});

	it('a detail without status: the list tells it', async () => {
		ctx.emu.setVariants({ detailWithoutStatus: true });
		const run = await update([SUBJECT_9002]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			'GET /solution/installation',
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9002',
			`PLAY ${ACME}`,
		]);
		expect(status()).toBe(1);
	});

	it.each(VARIANT_CHOICES.activeRefusal.map((status) => [status]))(
		'neither detail nor list tells: the refused PUT (%s) does, and the installation is paused and started again',
		async (activeRefusal) => {
			ctx.emu.setVariants({ detailWithoutStatus: true, listWithoutStatus: true, activeRefusal });
			const seen = ctx.emu.requests.length;
			const run = await update([SUBJECT_9002]);
			expect(run.error).toBeUndefined();
			expect(run.calls).toEqual([
				`GET ${ACME}`,
				'GET /solution/installation',
				'PUT /bundle/data/9002',
				`PAUSE ${ACME}`,
				'PUT /bundle/data/9002',
				`PLAY ${ACME}`,
			]);
			expect(run.json[0]).toMatchObject({ pausedForUpdate: true, installationStatus: 1 });
			expect(status()).toBe(1);
			expect(
				ctx.emu.requests
					.slice(seen)
					.filter((r) => r.method === 'PUT')
					.map((r) => r.status),
			).toEqual([Number(activeRefusal), 200]);
		},
	);
});

describe('a failure in a group without Continue On Fail', () => {
	it('stops the remaining PUTs of the run, and still starts the installation again', async () => {
		const run = await update([
			{ installation: 5001, bundle: 7001, step: 9001, values: { unknownField: 1 } },
			{ installation: 5001, bundle: 7001, step: 9001, values: { subject: 'never sent' } },
			{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'never sent' } },
		]);
		expect(run.error?.message).toMatch(/unknownField/);
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9001',
			`PLAY ${ACME}`,
		]);
		expect(status()).toBe(1);
	});

	it('bad input in any item: nothing is sent', async () => {
		const run = await update([
			SUBJECT_9002,
			{ installation: 5001, bundle: 7001, step: 'not-a-step', values: { subject: 'x' } },
		]);
		expect(run.error?.message).toMatch(/Step/);
		expect(run.calls).toEqual([]);
	});
});
