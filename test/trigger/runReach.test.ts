/**
 * How far a poll reads the runs (docs/trigger.md, "How far a poll reads the runs"), on 150 recorded
 * runs paged as Yii pages (50 a page, as the trigger asks): newest first down to the newest known
 * run less the lateness, back to a run followed in progress, back to the start of a failed streak for
 * Automation Recovered, and a list in another order read whole.
 */
import type { IDataObject } from 'n8n-workflow';

import { endRun } from '../../emulator/handlers/runs';
import type { Variants } from '../../emulator/types';
import { pollContext } from '../../harness';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pagesRead } from '../support/triggerVolume';
import { useEmulator } from '../support/setup';

const ctx = useEmulator();

const MINUTE = 60_000;
const T = Date.parse('2026-03-01T12:00:00Z');
const dated = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/** 150 successful runs of automation 7001, one every 10 minutes, the newest at T. */
function history(): void {
	for (let i = 149; i >= 0; i--)
		ctx.emu.recordRun({
			bundleId: 7001,
			outcome: 'succeeded',
			dateCreated: dated(T - i * 10 * MINUTE),
		});
}

const record = (outcome: 'succeeded' | 'failed' | 'inProgress', at: number) =>
	ctx.emu.recordRun({ bundleId: 7001, outcome, dateCreated: dated(at) }).id;

/** One poll (of Run Failed); its [event, runId] pairs and the pages of runs it read. */
async function poll(staticData: IDataObject, events = ['runFailed']) {
	const trigger = new AlbatoSolutionsTrigger();
	const output = await trigger.poll.call(
		pollContext({
			nodeType: trigger,
			parameters: { events, runInstallationId: '' },
			credentials: {
				albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() },
			},
			staticData,
			mode: 'trigger',
		}),
	);
	const items = (output?.[0] ?? []).map(({ json }) => json);
	return {
		events: items.map((item) => [item.event, item.runId ?? (item.run as IDataObject).id]),
		pages: pagesRead(ctx.emu),
		items,
	};
}

/** Pages of the whole list (user-1's runs: automations 7001 and 7003). */
const allPages = () =>
	Math.ceil(ctx.emu.runs().filter((run) => [7001, 7003].includes(run.bundleId)).length / 50);

beforeEach(() => ctx.emu.setVariants({ pagination: 'headers' }));

it('newest first: down to the newest known run less 60 minutes; a run listed 50 minutes late is reported, 20 hours late it is not read', async () => {
	history();
	const staticData: IDataObject = {};
	expect(await poll(staticData)).toMatchObject({ events: [], pages: allPages() });
	expect(allPages()).toBeGreaterThanOrEqual(4);
	expect(await poll(staticData)).toMatchObject({ events: [], pages: 1 });
	const late = record('failed', T - 50 * MINUTE);
	expect(await poll(staticData)).toMatchObject({ events: [['runFailed', late]], pages: 1 });
	record('failed', T - 20 * 60 * MINUTE);
	expect(await poll(staticData)).toMatchObject({ events: [], pages: 1 });
});

it('a run in progress for hours is followed back, and reported once when it ends', async () => {
	const running = record('inProgress', T - 20 * 60 * MINUTE);
	history();
	const staticData: IDataObject = {};
	await poll(staticData);
	// Read down to the run in progress (20 hours back: the 122nd run), not the whole list.
	expect(await poll(staticData)).toMatchObject({ events: [], pages: 3 });
	expect(allPages()).toBeGreaterThan(3);
	endRun(ctx.emu.state, running, 'failed');
	expect(await poll(staticData)).toMatchObject({ events: [['runFailed', running]], pages: 3 });
	expect(await poll(staticData)).toMatchObject({ events: [], pages: 1 });
});

it.each<Variants['runOrder']>(['oldest', 'shuffled'])(
	'a list not newest first (%s) is read whole: a new failed run is reported once',
	async (runOrder) => {
		ctx.emu.setVariants({ pagination: 'headers', runOrder });
		history();
		const staticData: IDataObject = {};
		await poll(staticData);
		const failed = record('failed', T + 5 * MINUTE);
		expect(await poll(staticData)).toMatchObject({
			events: [['runFailed', failed]],
			pages: allPages(),
		});
		expect(await poll(staticData)).toMatchObject({ events: [], pages: allPages() });
	},
);

it('Automation Recovered after a streak of 150 failures: read back to the success before it', async () => {
	record('succeeded', T - 30 * 60 * MINUTE);
	const failures: number[] = [];
	for (let i = 149; i >= 0; i--) failures.push(record('failed', T - i * 10 * MINUTE));
	const staticData: IDataObject = {};
	const events = ['automationRecovered'];
	await poll(staticData, events);
	expect(await poll(staticData, events)).toMatchObject({ events: [], pages: 1 });
	const success = record('succeeded', T + 10 * MINUTE);
	const recovered = await poll(staticData, events);
	expect(recovered.events).toEqual([['automationRecovered', success]]);
	expect(recovered.items[0]).toMatchObject({ failedRuns: 150, firstFailedRunId: failures[0] });
	expect(recovered.pages).toBe(4);
	expect(await poll(staticData, events)).toMatchObject({ events: [], pages: 1 });
});
