/**
 * Bundle Data → Update with "Pause, Update, Then Start Again" at its edges, through n8n-core
 * against the emulator: the restart's messages word for word, answers that do not say the new
 * status, a PLAY lost twice, items that fail or stop the run while another item of the group is
 * refused, and steps that are not part of the installation. Written to kill the mutants that
 * survived the other tests.
 */
import type { INodeParameters } from 'n8n-workflow';

import { guardedUpdateFromItems, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const NO_RETRIES = { requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 1 } };
const TWO_IN_FLIGHT = { requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 2 } };
const ACME = '/solution/installation/5001';
const GLOBEX = '/solution/installation/5002';
/** Two fields of step 9002, so the messages list them both. */
const SUBJECT_9002 = {
	installation: 5001,
	bundle: 7001,
	step: 9002,
	values: { subject: 'Edge proof', doubleOptIn: true },
};
const BAD_9001 = { installation: 5001, bundle: 7001, step: 9001, values: { unknownField: 1 } };
const GOOD_9001 = { installation: 5001, bundle: 7001, step: 9001, values: { onlyNew: false } };
const NOT_PART = { installation: 5001, bundle: 7003, step: 9006, values: { subject: 'x' } };
/** A field whose error text says "paused": refused with 422 whatever the installation's status. */
const PAUSED_REASON_9006 = {
	installation: 5002,
	bundle: 7003,
	step: 9006,
	values: { paused_reason: 'holiday' },
};
const BAD_9001_ERROR =
	'data.unknownField: unknown field code; this step has: cf__8ad75c3e1f2b4a90, cf__1b9e04d7aa6c4f12, onlyNew';
const LOST =
	'The request failed before the service answered: The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.';
const NOT_STARTED = 'Installation 5001 was paused for the update and could not be started again';
/** The calls of an update of step 9002 of ACME that pauses it, up to and with its PUT. */
const PAUSED_PUT_9002 = [`GET ${ACME}`, `PAUSE ${ACME}`, 'PUT /bundle/data/9002'];
const PLAY_503 = `(PLAY ${ACME} → 503. The service failed; try again later.)`;

const update = (items: object[], continueOnFail = false, extra: INodeParameters = NO_RETRIES) =>
	runNode(ctx.emu, guardedUpdateFromItems(extra), {
		inputItems: items as never,
		continueOnFail,
	});
const status = (id = 5001) => ctx.emu.state.installations.get(id)?.status;
const value = (step: number, field: string) =>
	ctx.emu.state.bundleData.get(step)?.fields.find((f) => f.name === field)?.value;
const count = (calls: string[], call: string) => calls.filter((c) => c === call).length;

/**
 * Runs `action` once `test` holds for the emulator's log from now on (entries are written on
 * arrival).
 */
function when(test: (log: typeof ctx.emu.requests) => boolean, action: () => void) {
	const seen = ctx.emu.requests.length;
	const timer = setInterval(() => {
		if (test(ctx.emu.requests.slice(seen))) {
			clearInterval(timer);
			action();
		}
	}, 2);
	return () => clearInterval(timer);
}
const received = (method: string, path: string) => (log: typeof ctx.emu.requests) =>
	log.some((entry) => entry.method === method && entry.path === path);
/** Someone else starts the installation again. */
const startedElsewhere =
	(id = 5001) =>
	() =>
		(ctx.emu.state.installations.get(id)!.status = 1);

describe('the restart report, word for word', () => {
	it('a PLAY whose answer is lost twice is not sent a third time: the update carries restartError', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, reset: 'after', times: 2 });
		const run = await update([SUBJECT_9002], true);
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`, `PLAY ${ACME}`]);
		expect(run.json).toHaveLength(1);
		expect(run.json[0]).toMatchObject({
			id: 9002,
			pausedForUpdate: true,
			installationStatus: 0, // as far as this execution knows: both answers were lost
			restartError: `${NOT_STARTED}: ${LOST} Start it with Installation → Start.`,
		});
		expect(run.json[0]).not.toHaveProperty('installationRemoved');
	});

	it('without Continue On Fail: the run fails naming the one applied item, its fields and the cause', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, reset: 'after', times: 2 });
		const run = await update([SUBJECT_9002]);
		expect(count(run.calls, `PLAY ${ACME}`)).toBe(2);
		expect(run.error?.message).toBe(`${NOT_STARTED}: ${LOST}`);
		expect(run.error?.description).toBe(
			`The updates of item 0 were applied: step 9002 (subject, doubleOptIn). Start it with Installation → Start. (PLAY ${ACME}. Check the Base URL of the credential and that the service is reachable.)`,
		);
		expect(run.error?.context?.itemIndex).toBe(0);
	});

	it('an item failed and another applied: the restart error names both', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
		const run = await update([BAD_9001, SUBJECT_9002]);
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9001',
			'PUT /bundle/data/9002',
			`PLAY ${ACME}`,
		]);
		expect(run.error?.message).toBe(`${NOT_STARTED}: Emulated fault: 503`);
		expect(run.error?.description).toBe(
			`The updates of item 1 were applied: step 9002 (subject, doubleOptIn). Item 0 failed: ${BAD_9001_ERROR}. Start it with Installation → Start. ${PLAY_503}`,
		);
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(value(9002, 'subject')).toBe('Edge proof');
	});

	it('PAUSE and PLAY fail, nothing applied: the run fails with the restart error, naming the failed item', async () => {
		ctx.emu.faults.add({ method: 'PAUSE', path: ACME, status: 503 });
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
		const run = await update([SUBJECT_9002]);
		expect(run.calls).toEqual([`GET ${ACME}`, `PAUSE ${ACME}`, `PLAY ${ACME}`]);
		expect(run.error?.message).toBe(`${NOT_STARTED}: Emulated fault: 503`);
		expect(run.error?.description).toBe(
			`Item 0 failed: Emulated fault: 503. Start it with Installation → Start. ${PLAY_503}`,
		);
	});

	it('PAUSE and PLAY fail, Continue On Fail: the failed item keeps its own hint and adds the restart error', async () => {
		ctx.emu.faults.add({ method: 'PAUSE', path: ACME, status: 503 });
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
		const run = await update([SUBJECT_9002], true);
		expect(run.json).toEqual([
			{
				error: 'Emulated fault: 503',
				message: `PAUSE ${ACME} → 503. The service failed; try again later. Also: ${NOT_STARTED}: Emulated fault: 503. Start it with Installation → Start.`,
				httpCode: '503',
			},
		]);
	});
});

describe('answers that do not say the new status', () => {
	it('PAUSE and PLAY answered without a status: taken as paused, then active', async () => {
		ctx.emu.setVariants({ statusCallWithoutStatus: true });
		const run = await update([SUBJECT_9002]);
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`]);
		expect(run.json[0]).toMatchObject({ id: 9002, pausedForUpdate: true, installationStatus: 1 });
		expect(status()).toBe(1);
	});

	it('PAUSE answered without a status and PLAY failing: the update says the installation is paused', async () => {
		ctx.emu.setVariants({ statusCallWithoutStatus: true });
		ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
		const run = await update([SUBJECT_9002], true);
		expect(run.json[0]).toMatchObject({
			id: 9002,
			pausedForUpdate: true,
			installationStatus: 0,
			restartError: `${NOT_STARTED}: Emulated fault: 503. Start it with Installation → Start.`,
		});
		expect(status()).toBe(0);
	});

	it('a PUT answered 200 with an empty body: the output names the step updated', async () => {
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', emptyBody: true });
		const run = await update([SUBJECT_9002]);
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ id: 9002, bundleId: 7001, installationId: 5001 });
		expect(value(9002, 'subject')).toBe('Edge proof');
	});
});

describe('items that fail before any PUT', () => {
	it('the installation cannot be read: every item of it fails with that error, nothing else is sent', async () => {
		ctx.emu.faults.add({ method: 'GET', path: ACME, status: 503 });
		const run = await update([SUBJECT_9002, GOOD_9001], true);
		expect(run.calls).toEqual([`GET ${ACME}`]);
		const failed = {
			error: 'Emulated fault: 503',
			message: `GET ${ACME} → 503. The service failed; try again later.`,
			httpCode: '503',
		};
		expect(run.json).toEqual([failed, failed]);
		expect(run.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('a step not part of the installation: its item fails with a description; the others go on', async () => {
		const run = await update([NOT_PART, SUBJECT_9002], true);
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PLAY ${ACME}`]);
		expect(run.json[0]).toEqual({
			error: 'Step 9006 of automation 7003 is not part of installation 5001',
			message: 'Nothing was changed. Pick the automation and step again for this installation.',
		});
		expect(run.json[1]).toMatchObject({ id: 9002, pausedForUpdate: true, installationStatus: 1 });
		expect(value(9006, 'subject')).toBe('Welcome aboard'); // 9006 of installation 5002 untouched
	});

	it('a step not part of the installation, alone, Continue On Fail: nothing is paused', async () => {
		const run = await update([NOT_PART], true);
		expect(run.calls).toEqual([`GET ${ACME}`]);
		expect(run.json).toHaveLength(1);
		expect(run.json[0].error).toBe('Step 9006 of automation 7003 is not part of installation 5001');
		expect(status()).toBe(1);
	});

	it('a step not part of the installation, without Continue On Fail: the error says so, for its item', async () => {
		const run = await update([GOOD_9001, NOT_PART]);
		expect(run.calls).toEqual([`GET ${ACME}`]);
		expect(run.error?.message).toBe(
			'Step 9006 of automation 7003 is not part of installation 5001',
		);
		expect(run.error?.description).toBe(
			'Nothing was changed. Pick the automation and step again for this installation.',
		);
		expect(run.error?.context?.itemIndex).toBe(1);
	});
});

describe('a failed item and the rest of the run', () => {
	it('Continue On Fail: a failed update does not stop the next update of the same step', async () => {
		const run = await update([BAD_9001, GOOD_9001], true);
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9001',
			'PUT /bundle/data/9001',
			`PLAY ${ACME}`,
		]);
		expect(run.json[0].error).toBe(BAD_9001_ERROR);
		expect(run.json[1]).toMatchObject({ id: 9001, pausedForUpdate: true, installationStatus: 1 });
		expect(value(9001, 'onlyNew')).toBe(false);
	});

	it('a PUT refused as active whose new PAUSE fails: the item fails with the PAUSE error, no more PUTs', async () => {
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', delayMs: 200 });
		const stop = when(received('PUT', '/bundle/data/9002'), () => {
			startedElsewhere()();
			ctx.emu.faults.add({ method: 'PAUSE', path: ACME, status: 503 });
		});
		const run = await update([SUBJECT_9002], true).finally(stop);
		expect(run.calls).toEqual([...PAUSED_PUT_9002, `PAUSE ${ACME}`, `PLAY ${ACME}`]);
		expect(run.json[0]).toEqual({
			error: 'Emulated fault: 503',
			message: `PAUSE ${ACME} → 503. The service failed; try again later.`,
			httpCode: '503',
		});
		expect(value(9002, 'subject')).toBe('Welcome aboard');
		expect(status()).toBe(1);
	});

	it('without Continue On Fail, a PUT refused as active after another item failed is not sent again', async () => {
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', delayMs: 300 });
		const stop = when(received('PUT', '/bundle/data/9002'), startedElsewhere());
		const run = await update([BAD_9001, SUBJECT_9002]).finally(stop);
		expect(run.error?.message).toBe(BAD_9001_ERROR);
		// The refused PUT still pauses again (this execution owes the PLAY anyway), then stops.
		expect(run.calls).toEqual([
			`GET ${ACME}`,
			`PAUSE ${ACME}`,
			'PUT /bundle/data/9001',
			'PUT /bundle/data/9002',
			`PAUSE ${ACME}`,
			`PLAY ${ACME}`,
		]);
		expect(value(9002, 'subject')).toBe('Welcome aboard');
		expect(status()).toBe(1);
	});

	it('without Continue On Fail, a PUT refused while the installation reads paused is not sent again once the run stopped', async () => {
		// Two installations at once: Globex's PUT is answered (refused) after ACME's item has failed.
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9006', delayMs: 300 });
		const run = await update([PAUSED_REASON_9006, BAD_9001], false, TWO_IN_FLIGHT);
		expect(run.error?.message).toMatch(/paused_reason/);
		const globex = run.calls.filter((call) => call.endsWith(GLOBEX) || call.endsWith('/9006'));
		expect(globex).toEqual([`GET ${GLOBEX}`, 'PUT /bundle/data/9006', `GET ${GLOBEX}`]);
		expect(count(run.calls, 'PUT /bundle/data/9001')).toBe(1);
		expect(status(5002)).toBe(0);
		expect(status()).toBe(1);
	});
});

describe('refusals that say "paused"', () => {
	it('a field error while paused: each retry reads the installation again (4 reads), never pauses', async () => {
		const run = await update([PAUSED_REASON_9006], true);
		const put = 'PUT /bundle/data/9006';
		const read = `GET ${GLOBEX}`;
		expect(run.calls).toEqual([read, put, read, put, read, put, read, put, read, put]);
		// The first read expands the bundles; the confirming reads need only the status.
		const reads = ctx.emu.requests.filter((entry) => entry.path === GLOBEX);
		expect(reads.map((entry) => entry.rawQuery)).toEqual([
			'expand=app.templates,+bundles.steps',
			'',
			'',
			'',
			'',
		]);
		expect(run.json[0].error).toMatch(/paused_reason/);
		expect(status(5002)).toBe(0);
	});

	it('a PUT refused as active after this execution paused again since it was sent: sent again before pausing again', async () => {
		// Step 9001's PUT is refused first and pauses again; step 9002's PUT, sent before that pause,
		// is refused after it: it is sent once more without a pause, and pauses only when refused
		// again.
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9001', delayMs: 100 });
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', delayMs: 500 });
		const stops = [
			when(received('PUT', '/bundle/data/9001'), startedElsewhere()),
			// Started again once 9001's second PUT has applied, so 9002's delayed PUT is refused.
			when(
				(log) =>
					log.some(
						(entry) =>
							entry.method === 'PUT' && entry.path === '/bundle/data/9001' && entry.status === 200,
					),
				startedElsewhere(),
			),
		];
		const run = await update([GOOD_9001, SUBJECT_9002], true, TWO_IN_FLIGHT).finally(() =>
			stops.forEach((stop) => stop()),
		);
		expect(run.json.map((item) => item.error)).toEqual([undefined, undefined]);
		expect(count(run.calls, 'PUT /bundle/data/9001')).toBe(2);
		expect(count(run.calls, 'PUT /bundle/data/9002')).toBe(3);
		expect(count(run.calls, `PAUSE ${ACME}`)).toBe(3);
		expect(
			ctx.emu.requests
				.filter((entry) => entry.method === 'PUT')
				.map((e) => `${e.path} ${e.status}`),
		).toEqual([
			'/bundle/data/9001 422',
			'/bundle/data/9002 422',
			'/bundle/data/9001 200',
			'/bundle/data/9002 422',
			'/bundle/data/9002 200',
		]);
		expect(run.calls.at(-1)).toBe(`PLAY ${ACME}`);
		expect(value(9001, 'onlyNew')).toBe(false);
		expect(value(9002, 'subject')).toBe('Edge proof');
		expect(status()).toBe(1);
	});
});
