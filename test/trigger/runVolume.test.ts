/**
 * The trigger's run and automation events at real run volume, time-lapsed (test/support/
 * triggerVolume.ts): one end user, two automations at 50 runs a day, polls every 10 to 30 simulated
 * minutes (1 to 3 hours after each week's first day) for weeks, and the trigger off for a week in
 * between. Against the emulator's ground truth: every ended run reported once as Run Failed or Run
 * Succeeded, none missed; each incident once; and the pages of `GET /bundle/events` read per poll
 * bounded, the same in the last week as in the first (docs/trigger.md, "How far a poll reads the
 * runs").
 */
import type { IDataObject } from 'n8n-workflow';

import {
	control,
	nothingSaid,
	pagesRead,
	poll,
	pollSpan,
	pollTimes,
	setClock,
	STREAM,
	T0,
	useVolumeEmulator,
	verdict,
	WEEK,
	type Week,
	hear,
	DAY,
	MINUTE,
	runStart,
} from '../support/triggerVolume';
import { MAX_READ_BACK } from '../../nodes/AlbatoSolutionsTrigger/runReach';
import { RUNS_PER_PAGE } from '../../nodes/shared/api/run';

const ctx = useVolumeEmulator();

/** Pages a steady poll may read: it reads about an hour of runs and more, 1 page of 50 here. */
const STEADY_PAGES = 2;

const mean = (week: Week) => (week.pages / week.polls).toFixed(2);

it('six simulated weeks with a week off: each run once, none missed, pages flat', async () => {
	const { emu } = ctx;
	await setClock(emu, T0);
	await control(emu, 'runs/stream', STREAM);
	const staticData: IDataObject = {};
	const said = nothingSaid();
	const next = pollTimes();

	const first = await poll(emu, staticData);
	said.polls.push(T0); // the baseline poll
	const firstPages = pagesRead(emu);
	// The first poll is a baseline: only the automations failing now are reported.
	expect(first.every((item) => item.event === 'automationFailing')).toBe(true);
	const before = await pollSpan(
		{ emu, staticData, said },
		[next(T0), T0 + 3 * WEEK],
		next,
		STEADY_PAGES,
	);

	// The trigger is off for a week (its static data saved and loaded again), then polls on.
	const saved = JSON.parse(JSON.stringify(staticData)) as IDataObject;
	const back = T0 + 4 * WEEK;
	await setClock(emu, back);
	hear(await poll(emu, saved), said, back);
	const catchUpPages = pagesRead(emu);
	const span = [next(back), T0 + 6 * WEEK] as [number, number];
	const after = await pollSpan({ emu, staticData: saved, said }, span, next, STEADY_PAGES);

	const found = await verdict(emu, said, [T0, emu.clock.now()]);
	const [week1, week6] = [before.get(1)!, after.get(6)!];
	console.log(
		`trigger, 2 automations at 50 runs a day: ${found.runs} runs (${found.failed.length} failed), ` +
			`${found.twice} twice, ${found.missed.length} missed, ${found.invented.length} invented; ` +
			`incidents (truth) ${found.opened} opened, ${found.resolved} resolved (${found.decidedLate} ` +
			`decided by a run listed late), ${found.incidentsTwice} twice, ` +
			`${found.incidentsMissed.length} missed, ${found.incidentsInvented.length} invented; ` +
			`pages per poll: first poll ${firstPages}, week 1 max ${week1.maxPages} mean ${mean(week1)} ` +
			`(${week1.polls} polls), catch-up after a week off ${catchUpPages}, week 6 max ` +
			`${week6.maxPages} mean ${mean(week6)} (${week6.polls} polls); static data ` +
			`${JSON.stringify(saved).length} bytes`,
	);
	expect([found.twice, found.missed, found.invented]).toEqual([0, [], []]);
	expect([...said.failed].sort()).toEqual([...found.failed].sort());
	expect([found.incidentsTwice, found.incidentsMissed, found.incidentsInvented]).toEqual([
		0,
		[],
		[],
	]);
	expect(week6.maxPages).toBeLessThanOrEqual(week1.maxPages);
	expect(Number(mean(week6))).toBeLessThanOrEqual(Number(mean(week1)));
	// A week of runs (700) at 50 a page, and the hour before it.
	expect(catchUpPages).toBeLessThanOrEqual(16);
}, 180_000);

it('off for four weeks: the newest 2,000 ended runs reported, the older ones not, then each once', async () => {
	const { emu } = ctx;
	await setClock(emu, T0);
	await control(emu, 'runs/stream', STREAM);
	const staticData: IDataObject = {};
	const next = pollTimes();
	await poll(emu, staticData);
	pagesRead(emu);
	const said = nothingSaid();
	said.polls.push(T0); // the baseline poll
	await pollSpan({ emu, staticData, said }, [next(T0), T0 + DAY], next, STEADY_PAGES);

	const back = T0 + DAY + 4 * WEEK;
	await setClock(emu, back);
	pagesRead(emu);
	const caughtUp = nothingSaid();
	hear(await poll(emu, staticData), caughtUp, back);
	const catchUpPages = pagesRead(emu);
	const gap = await verdict(emu, caughtUp, [T0 + DAY, back]);
	const reported = [...caughtUp.run.keys()];
	const oldestReported = Math.min(...reported.map((id) => runStart(emu, id)));
	// The runs before the newest MAX_READ_BACK ended ones are old history, as before a first poll.
	expect(reported.length).toBeGreaterThan(MAX_READ_BACK - 50);
	expect(reported.length).toBeLessThanOrEqual(MAX_READ_BACK);
	expect(gap.missed.length).toBe(gap.runs - reported.length);
	expect(Math.max(...gap.missed.map((id) => runStart(emu, id)))).toBeLessThanOrEqual(
		oldestReported,
	);
	expect([gap.twice, gap.invented]).toEqual([0, []]);
	expect(catchUpPages).toBeLessThanOrEqual(Math.ceil((MAX_READ_BACK * 1.1) / RUNS_PER_PAGE));

	const later = nothingSaid();
	await pollSpan({ emu, staticData, said: later }, [next(back), back + DAY], next, STEADY_PAGES);
	const found = await verdict(emu, later, [back, emu.clock.now()]);
	console.log(
		`off for four weeks: ${gap.runs} runs ended meanwhile, ${reported.length} reported in ` +
			`${catchUpPages} pages, ${gap.missed.length} older ones not; the day after: ${found.runs} ` +
			`runs, ${found.twice} twice, ${found.missed.length} missed`,
	);
	expect([found.twice, found.missed, found.invented]).toEqual([0, [], []]);
}, 120_000);

it('a year, as the fleet bench runs it: each week the clock jumps a week, then two polls 15 minutes apart: each run once, none missed, flat', async () => {
	const { emu } = ctx;
	await setClock(emu, T0);
	await control(emu, 'runs/stream', STREAM);
	const staticData: IDataObject = {};
	await poll(emu, staticData);
	pagesRead(emu);
	const said = nothingSaid();
	said.polls.push(T0); // the baseline poll
	const figures: Array<{ catchUp: number; steady: number; bytes: number }> = [];
	for (let week = 1; week <= 52; week++) {
		const at = T0 + week * WEEK;
		await setClock(emu, at);
		hear(await poll(emu, staticData), said, at);
		const catchUp = pagesRead(emu);
		const steady = await pollSpan(
			{ emu, staticData, said },
			[at + 15 * MINUTE, at + 30 * MINUTE],
			(t) => t + 15 * MINUTE,
			STEADY_PAGES,
		);
		const bytes = JSON.stringify(staticData).length;
		figures.push({ catchUp, steady: [...steady.values()][0].maxPages, bytes });
	}
	const found = await verdict(emu, said, [T0, emu.clock.now()]);
	const [week1, week52] = [figures[0], figures[51]];
	console.log(
		`a year: ${found.runs} runs (${found.failed.length} failed), ${found.twice} twice, ` +
			`${found.missed.length} missed, ${found.invented.length} invented; incidents ` +
			`${found.incidentsTwice} twice, ${found.incidentsMissed.length} missed of ` +
			`${found.opened + found.resolved} (${found.decidedLate} decided by a run listed late); week 1: catch-up ${week1.catchUp} pages, steady ` +
			`${week1.steady}, static data ${week1.bytes} bytes; week 52: catch-up ${week52.catchUp} ` +
			`pages, steady ${week52.steady}, static data ${week52.bytes} bytes`,
	);
	expect([found.twice, found.missed, found.invented]).toEqual([0, [], []]);
	expect([found.incidentsTwice, found.incidentsMissed, found.incidentsInvented]).toEqual([
		0,
		[],
		[],
	]);
	expect(week52.catchUp).toBeLessThanOrEqual(week1.catchUp + 1);
	expect(week52.steady).toBeLessThanOrEqual(week1.steady);
	expect(week52.bytes).toBeLessThanOrEqual(week1.bytes * 1.1);
}, 300_000);
