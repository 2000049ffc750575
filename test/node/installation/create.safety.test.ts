/**
 * Installation → Create never duplicates and never reports another item's installation, through
 * n8n-core's engine against the emulator: items with the same title in flight at once, two
 * executions at once, a list that lags behind the POST, and a list that fails after a lost answer.
 */
import type { INodeParameters } from 'n8n-workflow';

import { installParams, runNode, useEmulator } from '../../support/setup';
import { useShortWaits } from '../../support/waits';

const ctx = useEmulator();
/**
 * The list lags by reads here (by time in one test, which waits in real time): the node's waits can
 * be short.
 */
const waits = useShortWaits();

const install = (options: INodeParameters = {}, concurrency = 1): INodeParameters =>
	installParams('={{ $json.title }}', { options, requestOptions: { concurrency, maxRetries: 0 } });
const titled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);
const posts = (calls: string[]) => calls.filter((call) => call.startsWith('POST'));
const items = (title: string, n: number) => Array.from({ length: n }, () => ({ title }));

/**
 * `n` items titled `title` in flight at once, 2 answers lost, a list one read behind: each item
 * gets its own installation.
 */
async function lostAnswersWhileTheListLags(title: string, n: number) {
	ctx.emu.setListLag({ reads: 1 });
	ctx.emu.faults.add({
		method: 'POST',
		path: '/solution/102/installation',
		reset: 'after',
		times: 2,
	});
	const run = await runNode(ctx.emu, install({ lostAnswerCheck: 1 }, n), {
		inputItems: items(title, n),
	});
	expect(run.error).toBeUndefined();
	const ids = run.json.map((json) => json.id);
	expect(new Set(ids).size).toBe(n);
	expect(
		titled(title)
			.map((i) => i.id)
			.sort(),
	).toEqual([...ids].sort());
	return run;
}

describe('same title, several at once', () => {
	it('4 items in flight with the same title, 2 answers lost, a lagging list: 4 installations, each item its own', async () => {
		await lostAnswersWhileTheListLags('Twins', 4);
	});

	it('Refuse Duplicate Title holds across items in flight, even while the list lags: 1 installed, 3 refused', async () => {
		ctx.emu.setListLag({ reads: 10 });
		const run = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }, 4), {
			inputItems: items('Only once', 4),
			continueOnFail: true,
		});
		expect(titled('Only once')).toHaveLength(1);
		expect(run.json[0]).toMatchObject({ id: titled('Only once')[0].id });
		expect(run.json).toHaveLength(4);
		for (const json of run.json.slice(1))
			expect(json.error).toBe(
				`An installation titled "Only once" already exists (ID ${titled('Only once')[0].id})`,
			);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('Refuse Duplicate Title: an installation the list does not show yet counts, unless its detail says it is gone (404)', async () => {
		ctx.emu.setListLag({ reads: 10 });
		const first = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: items('Removed since', 1),
		});
		const id = first.json[0].id as number;
		const again = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: items('Removed since', 1),
		});
		expect(again.error?.message).toBe(
			`An installation titled "Removed since" already exists (ID ${id})`,
		);
		expect(again.calls).toContain(`GET /solution/installation/${id}`);
		ctx.emu.removeInstallation(id);
		const afterRemoval = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: items('Removed since', 1),
		});
		expect(afterRemoval.error).toBeUndefined();
		expect(titled('Removed since')).toHaveLength(1);
	});

	it('two executions at once (same process), Refuse Duplicate Title, lagging list: 1 installed', async () => {
		waits.divisor = 1; // the list lags by time: the Lost Answer Check must really wait
		ctx.emu.setListLag({ ms: 2000 });
		const [a, b] = await Promise.all([
			runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
				inputItems: items('Racing', 1),
				continueOnFail: true,
			}),
			runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
				inputItems: items('Racing', 1),
				continueOnFail: true,
			}),
		]);
		expect(titled('Racing')).toHaveLength(1);
		const outcomes = [a.json[0], b.json[0]].map((json) => (json.error ? 'refused' : json.id));
		expect(outcomes.sort()).toEqual([titled('Racing')[0].id, 'refused'].sort());
	});
});

describe('lost answers and a lagging or failing list', () => {
	it('answer lost, an older installation with the same title already listed: the new one is reported, never the older one', async () => {
		const older = ctx.emu.state.installations.get(5001)!; // the fixture "Leads for ACME", listed before the POST
		ctx.emu.setListLag({ reads: 2 });
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 1 }), {
			inputItems: items(older.title, 1),
		});
		expect(run.error).toBeUndefined();
		const made = titled(older.title).map((installation) => installation.id);
		expect(made).toHaveLength(2);
		const newer = made.filter((id) => id !== older.id);
		expect(newer).toHaveLength(1);
		expect(run.json).toHaveLength(1);
		expect(run.json[0].id).toBe(newer[0]);
		expect(run.json[0].id).not.toBe(older.id);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('answer lost, list lags 2 reads: found on the 3rd read, never sent again', async () => {
		ctx.emu.setListLag({ reads: 2 });
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 1 }), {
			inputItems: items('Lagging', 1),
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0].id).toBe(titled('Lagging')[0].id);
		expect(posts(run.calls)).toHaveLength(1);
		expect(titled('Lagging')).toHaveLength(1);
	});

	it('answer lost, list lags longer than the check: "outcome unknown", nothing sent again', async () => {
		ctx.emu.setListLag({ reads: 50 });
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: items('Slow list', 1),
		});
		expect(run.error?.message).toMatch(/outcome of installing "Slow list" is unknown/);
		expect(run.error?.description).toMatch(/It was not sent again/);
		expect(posts(run.calls)).toHaveLength(1);
		expect(titled('Slow list')).toHaveLength(1);
	});

	it('answer lost, then the list itself fails twice: the next re-check read finds it', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		// The read before the POST passes; the first 2 re-check reads fail, the 3rd answers.
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation', delayMs: 0, times: 1 });
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation', status: 503, times: 2 });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: items('Flaky list', 1),
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0].id).toBe(titled('Flaky list')[0].id);
		expect(run.calls.filter((call) => call === 'GET /solution/installation')).toHaveLength(4);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('every re-check read fails: "outcome unknown" names the failure and sends nothing again', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		// The read before the POST passes; the 4 re-check reads after it all fail.
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation', delayMs: 0, times: 1 });
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation', status: 503, times: 4 });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: items('No list', 1),
		});
		expect(run.error?.message).toMatch(/outcome of installing "No list" is unknown/);
		// Nothing could be read: it says so, and does not lean towards "not installed".
		expect(run.error?.description).toMatch(
			/The end user's installation list could not be read \(4 reads over 0.5 s failed: Emulated fault: 503\), so nothing is known: the installation may exist\./,
		);
		expect(run.error?.description).not.toMatch(/appeared in 0 reads/);
		expect(posts(run.calls)).toHaveLength(1);
		expect(titled('No list')).toHaveLength(1);
	});

	it('two lost answers for the same title while the list lags: each item claims its own installation', async () => {
		const run = await lostAnswersWhileTheListLags('Lost twice', 2);
		expect(posts(run.calls)).toHaveLength(2);
	});

	it('a claimed installation is never handed out again, even when it is the only new one the list shows', async () => {
		// Item 1 installs normally; the list lags, so item 2 (lost answer, not applied) sees item 1's
		// installation as "new since the call" with the same title. It must not take it.
		ctx.emu.setListLag({ reads: 1 });
		ctx.emu.faults.add({
			method: 'POST',
			path: '/solution/102/installation',
			times: 1,
			delayMs: 0,
		});
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'before' });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: items('Claimed', 2),
			continueOnFail: true,
		});
		expect(titled('Claimed')).toHaveLength(1);
		expect(run.json[0].id).toBe(titled('Claimed')[0].id);
		expect(run.json[1].error).toMatch(/outcome of installing "Claimed" is unknown/);
	});
});
