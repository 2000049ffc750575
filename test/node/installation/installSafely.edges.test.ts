/**
 * Installation → Create's install safety, word for word, through n8n-core's engine against the
 * emulator: the refusals' whole descriptions and item index, the "outcome unknown" error's
 * description and context, singular and plural read counts, and which calls an unlisted twin costs.
 */
import type { INodeParameters } from 'n8n-workflow';

import { installParams, runNode, useEmulator } from '../../support/setup';
import { useShortWaits } from '../../support/waits';

const ctx = useEmulator();
/**
 * The list lags by reads here (one POST is slow: that test waits in real time): the node's waits
 * can be short.
 */
const waits = useShortWaits();

const LIST = '/solution/installation';
const install = (options: INodeParameters = {}, requestOptions: INodeParameters = {}) =>
	installParams('={{ $json.title }}', {
		options,
		requestOptions: { concurrency: 1, maxRetries: 0, ...requestOptions },
	});
const titled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);
const posts = (calls: string[]) => calls.filter((call) => call.startsWith('POST'));
const lostPost = (fault: object = { reset: 'before' }) =>
	ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', ...fault });
/** The list read before the POST goes through; the next `failing` list reads answer 500. */
function failListReadsAfterTheFirst(failing: number) {
	ctx.emu.faults.add({ method: 'GET', path: LIST, delayMs: 0, times: 1 });
	ctx.emu.faults.add({ method: 'GET', path: LIST, status: 500, times: failing });
}
const TAIL =
	'It was not sent again, so that it cannot be installed twice. ' +
	'Check the end user\'s installations titled "%T" (Installation → Get Many, Title filter) before running this item again; ' +
	'raise Options → Lost Answer Check if the list lags further behind.';
const tail = (title: string) => TAIL.replace('%T', title);

describe('Refuse Duplicate Title: the refusal in full', () => {
	it('names the item that was refused, and says what to do', async () => {
		const first = await runNode(ctx.emu, install(), { inputItems: [{ title: 'Taken' }] });
		const id = first.json[0].id as number;
		const run = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Free one' }, { title: 'Taken' }],
		});
		expect(run.error?.message).toBe(`An installation titled "Taken" already exists (ID ${id})`);
		expect(run.error?.description).toBe(
			'Nothing was installed. Choose another title, or turn off "Refuse Duplicate Title".',
		);
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(titled('Taken')).toHaveLength(1);
	});
});

describe('"outcome unknown": the whole description and the context', () => {
	it('a POST that times out: "no answer within the Timeout", plural reads, no candidates', async () => {
		waits.divisor = 1; // the slow POST races the Lost Answer Check's real waits
		ctx.emu.setListLag({ reads: 50 });
		lostPost({ delayMs: 800 });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }, { timeout: 0.3 }), {
			inputItems: [{ title: 'Slow' }],
		});
		expect(run.error?.message).toBe(
			`The outcome of installing "Slow" is unknown: the service's answer was lost`,
		);
		expect(run.error?.description).toBe(
			'POST /solution/102/installation: no answer within the Timeout. ' +
				'No new installation titled "Slow" appeared in 4 reads of the list over 0.5 s; ' +
				'the service may not have installed it, or its list may still lag behind. ' +
				tail('Slow'),
		);
		expect(run.error?.context).toMatchObject({
			outcome: 'unknown',
			title: 'Slow',
			candidateIds: [],
		});
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('one list read fails: "(1 read failed: …)" after "3 reads"', async () => {
		ctx.emu.setListLag({ reads: 50 });
		failListReadsAfterTheFirst(1);
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'One failed' }],
		});
		const description = run.error?.description ?? '';
		expect(description).toMatch(
			/^POST \/solution\/102\/installation: the connection broke before the answer\. No new installation titled "One failed" appeared in 3 reads of the list over 0\.5 s \(1 read failed: .+\); the service may not have installed it, or its list may still lag behind\. /,
		);
		expect(description.endsWith(tail('One failed'))).toBe(true);
		expect(run.error?.context).toMatchObject({
			outcome: 'unknown',
			title: 'One failed',
			candidateIds: [],
		});
	});

	it('three list reads fail: "in 1 read of the list" and "(3 reads failed: …)"', async () => {
		ctx.emu.setListLag({ reads: 50 });
		failListReadsAfterTheFirst(3);
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Three failed' }],
		});
		expect(run.error?.description).toMatch(
			/ No new installation titled "Three failed" appeared in 1 read of the list over 0\.5 s \(3 reads failed: .+\); the service may not have installed it/,
		);
	});

	it('two candidates: their ids on the context, as text', async () => {
		const template = ctx.emu.state.installations.get(5001)!;
		ctx.emu.setListLag({ reads: 1 });
		for (const id of [9950, 9951]) {
			ctx.emu.state.installations.set(id, { ...template, id, title: 'Two', bundleIds: [] });
			ctx.emu.state.listLag.created(id);
		}
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Two' }],
		});
		expect(run.error?.context).toMatchObject({
			outcome: 'unknown',
			title: 'Two',
			candidateIds: ['9950', '9951'],
		});
		expect(run.error?.description).toBe(
			'POST /solution/102/installation: the connection broke before the answer. ' +
				'Several new installations titled "Two" appeared (IDs 9950, 9951); any of them may be this item\'s. ' +
				tail('Two'),
		);
	});
});

describe('Refuse Duplicate Title and unlisted twins: which calls they cost', () => {
	it('of two unlisted twins the newest is named, after one detail call without a status read', async () => {
		ctx.emu.setListLag({ reads: 20 });
		const older = await runNode(ctx.emu, install(), { inputItems: [{ title: 'Pair' }] });
		const newer = await runNode(ctx.emu, install(), { inputItems: [{ title: 'Pair' }] });
		const newest = newer.json[0].id as number;
		expect(newest).not.toBe(older.json[0].id);
		const run = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Pair' }],
		});
		expect(run.error?.message).toBe(`An installation titled "Pair" already exists (ID ${newest})`);
		expect(run.calls.filter((call) => call.startsWith(`GET ${LIST}`))).toEqual([
			`GET ${LIST}`,
			`GET ${LIST}/${newest}`,
		]);
	});

	it('a twin whose detail has no status costs no list read for its status', async () => {
		ctx.emu.setVariants({ detailWithoutStatus: true });
		ctx.emu.setListLag({ reads: 20 });
		const first = await runNode(ctx.emu, install(), { inputItems: [{ title: 'No status' }] });
		const id = first.json[0].id as number;
		const run = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'No status' }],
		});
		expect(run.error?.message).toBe(`An installation titled "No status" already exists (ID ${id})`);
		expect(run.calls.filter((call) => call.startsWith(`GET ${LIST}`))).toEqual([
			`GET ${LIST}`,
			`GET ${LIST}/${id}`,
		]);
	});

	it('a claimed installation the list shows under another title costs no detail call', async () => {
		const first = await runNode(ctx.emu, install(), { inputItems: [{ title: 'Renamed' }] });
		const id = first.json[0].id as number;
		ctx.emu.state.installations.get(id)!.title = 'Renamed since';
		const run = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Renamed' }],
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).not.toContain(`GET ${LIST}/${id}`);
		expect(posts(run.calls)).toHaveLength(1);
	});
});

describe('answers that name no installation, and lists that cannot be read', () => {
	it('a 201 that is not JSON, then nothing new in the list: "could not be read", with the status', async () => {
		ctx.emu.setListLag({ reads: 50 });
		lostPost({ malformedJson: true });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Garbled' }],
		});
		expect(run.error?.message).toBe(
			`The outcome of installing "Garbled" is unknown: the service's answer could not be read`,
		);
		expect(run.error?.description).toBe(
			'POST /solution/102/installation: the service answered 201 with a body that is not valid JSON. ' +
				'No new installation titled "Garbled" appeared in 4 reads of the list over 0.5 s; ' +
				'the service may not have installed it, or its list may still lag behind. ' +
				tail('Garbled'),
		);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('a 2xx with an empty body: the installation is found in the list and named', async () => {
		lostPost({ emptyBody: true });
		const run = await runNode(ctx.emu, install(), { inputItems: [{ title: 'Nameless' }] });
		expect(run.error).toBeUndefined();
		const [made] = titled('Nameless');
		expect(made).toBeDefined();
		expect(run.json[0].id).toBe(made.id);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('every list read after a lost answer fails: "nothing is known", reads counted', async () => {
		ctx.emu.setListLag({ reads: 50 });
		failListReadsAfterTheFirst(50);
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Blind' }],
		});
		expect(run.error?.message).toBe(
			`The outcome of installing "Blind" is unknown: the service's answer was lost`,
		);
		expect(run.error?.description).toMatch(
			/^POST \/solution\/102\/installation: the connection broke before the answer\. The end user's installation list could not be read \(4 reads over 0\.5 s failed: .+\), so nothing is known: the installation may exist\. /,
		);
		expect(run.error?.description?.endsWith(tail('Blind'))).toBe(true);
	});

	it('Refuse Duplicate Title: the check after the install says when the list could not be read', async () => {
		const checked = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Checked' }],
		});
		expect(checked.error).toBeUndefined();
		expect(checked.json[0]).not.toHaveProperty('duplicateCheck');

		failListReadsAfterTheFirst(50);
		const unchecked = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Unchecked' }],
		});
		expect(unchecked.error).toBeUndefined();
		expect(unchecked.json[0]).toMatchObject({
			id: titled('Unchecked')[0].id,
			duplicateCheck: 'not done: the installation list could not be read',
		});
	});
});
