/**
 * Run streams (issue 54): computed runs from the emulator clock, over real HTTP. Determinism,
 * Yii2 paging, runs listed late, runs in progress that end later, clock jumps, the ground truth,
 * recorded runs alongside, and nothing stored per run.
 */
import { startEmulator, type Emulator } from '../../emulator';
import {
	failsAt,
	knownAt,
	makeStream,
	runAt,
	startOf,
	STREAM_RUN_BASE,
	STREAM_STEP_BASE,
	streamsOf,
	visibleRuns,
} from '../../emulator/runStream';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const ORIGIN = Date.parse('2026-01-05T00:00:00Z');
const DAY = 86_400_000;
const SPEC = { runsPerDay: 50, seed: 7, origin: ORIGIN };
const stream = makeStream(SPEC, 0);

const control = (path: string, body?: unknown) =>
	call(emu, body === undefined ? 'GET' : 'POST', `/__emulator/${path}`, { body, token: null });
/** The clock frozen at `at`: each answer is computed at that instant, whatever the real time does. */
const setClock = (at: number) =>
	control('clock', { now: new Date(at).toISOString(), freeze: true });
const get = (path: string) => call(emu, 'GET', path);
type Listed = { id: number; status: number; dateCreated: string; steps?: { id: number }[][] };

/** Every page of a bundle's runs at `perPage`, following X-Pagination-Page-Count. */
async function allRuns(bundleId: number, perPage = 50): Promise<Listed[]> {
	const out: Listed[] = [];
	for (let page = 1; ; page++) {
		const res = await get(`/bundle/events?bundleId=${bundleId}&per-page=${perPage}&page=${page}`);
		expect(res.status).toBe(200);
		out.push(...res.data.data);
		if (!(page < Number(res.headers['x-pagination-page-count']))) return out;
	}
}

/** The first index of bundle 7002's stream (from 10) that `test` picks. */
function find(test: (i: number) => boolean): number {
	for (let i = 10; i < 100_000; i++) if (test(i)) return i;
	throw new Error('none found');
}

beforeEach(async () => {
	await setClock(ORIGIN + 2 * DAY);
	expect((await control('runs/stream', { bundleIds: [7001, 7002], ...SPEC })).status).toBe(201);
});

it('is deterministic: the same seed, bundle and clock give the same list; another seed another', async () => {
	const first = await get('/bundle/events?bundleId=7002&expand=steps');
	emu.reset();
	await setClock(ORIGIN + 2 * DAY);
	await control('runs/stream', { bundleIds: [7002], ...SPEC });
	expect((await get('/bundle/events?bundleId=7002&expand=steps')).data).toEqual(first.data);
	// Automations of one stream do not run in step: each has its own phase.
	expect(startOf(stream, 7001)).not.toBe(startOf(stream, 7002));
	await control('runs/stream', { bundleIds: [7002], ...SPEC, seed: 8 });
	expect((await get('/bundle/events?bundleId=7002&expand=steps')).data).not.toEqual(first.data);
});

it('is paged as Yii2 pages by default (20 a page, X-Pagination headers), newest first, whole and once', async () => {
	const page1 = await get('/bundle/events?bundleId=7002');
	expect(page1.data.data).toHaveLength(20);
	expect(page1.headers['x-pagination-per-page']).toBe('20');
	const total = Number(page1.headers['x-pagination-total-count']);
	expect(total).toBe(visibleRuns(stream, 7002, ORIGIN + 2 * DAY).length);
	expect(total).toBeGreaterThanOrEqual(50); // a day at least: a bundle's phase is under a day
	const runs = await allRuns(7002);
	expect(runs).toHaveLength(total);
	expect(new Set(runs.map((r) => r.id)).size).toBe(total);
	const dates = runs.map((r) => r.dateCreated);
	expect([...dates].sort().reverse()).toEqual(dates);
	// A page past the end answers the last page (Yii's validatePage).
	const past = await get('/bundle/events?bundleId=7002&per-page=50&page=99');
	const last = Math.ceil(total / 50);
	expect(past.headers['x-pagination-current-page']).toBe(String(last));
	expect(past.data.data.map((r: Listed) => r.id)).toEqual(
		runs.slice((last - 1) * 50).map((r) => r.id),
	);
});

it('lists a late run only some minutes after it ended', async () => {
	const i = find((k) => {
		const run = runAt(stream, 7002, k);
		return run.listedAt > run.end;
	});
	const run = runAt(stream, 7002, i);
	await setClock(run.listedAt - 1000);
	expect((await allRuns(7002)).map((r) => r.id)).not.toContain(run.id);
	await setClock(run.listedAt);
	const listed = (await allRuns(7002)).find((r) => r.id === run.id);
	expect(listed?.status).toBe(run.failed ? 2 : 1);
});

it('shows a long run in progress (status 0) across sweeps, then ended; its steps follow', async () => {
	const i = find((k) => {
		const run = runAt(stream, 7002, k);
		return run.end - run.start > 10 * 60_000 && run.listedAt === run.start;
	});
	const run = runAt(stream, 7002, i);
	await setClock(run.start + 60_000);
	let listed = (await allRuns(7002)).find((r) => r.id === run.id);
	expect(listed?.status).toBe(0);
	await setClock(run.start + 5 * 60_000);
	expect((await allRuns(7002)).find((r) => r.id === run.id)?.status).toBe(0);
	await setClock(run.end);
	const page = await get(`/bundle/events?bundleId=7002&expand=steps&per-page=50`);
	listed = page.data.data.find((r: Listed) => r.id === run.id);
	expect(listed?.status).toBe(run.failed ? 2 : 1);
	const lastStep = listed!.steps!.at(-1)![0].id;
	const detail = await get(`/bundle/events/steps/${lastStep}`);
	expect(detail.status).toBe(200);
	expect(detail.data.data).toMatchObject({ eventId: run.id, bundleId: 7002 });
	expect(detail.data.data.status).toBe(run.failed ? 2 : 1);
});

it('answers from the clock: a week later the list has a week more runs; a step not yet listed is 404', async () => {
	const before = Number(
		(await get('/bundle/events?bundleId=7002')).headers['x-pagination-total-count'],
	);
	const next = runAt(stream, 7002, visibleRuns(stream, 7002, ORIGIN + 2 * DAY).length + 5);
	const stepId = STREAM_STEP_BASE + (next.id - STREAM_RUN_BASE) * 4;
	expect((await get(`/bundle/events/steps/${stepId}`)).status).toBe(404);
	await control('clock', { advanceSeconds: 7 * 86_400 });
	const now = Date.parse((await control('clock')).data.now);
	const after = Number(
		(await get('/bundle/events?bundleId=7002')).headers['x-pagination-total-count'],
	);
	expect(now).toBe(ORIGIN + 9 * DAY);
	expect(after).toBe(visibleRuns(stream, 7002, now).length);
	expect(after - before).toBeGreaterThanOrEqual(345);
	expect(after - before).toBeLessThanOrEqual(355);
	expect((await get(`/bundle/events/steps/${stepId}`)).status).toBe(200);
});

it('gives the ground truth of a window: runs known in it, and incidents opened and resolved', async () => {
	const from = ORIGIN + DAY;
	const to = ORIGIN + 2 * DAY;
	const res = await control('runs/truth', { bundleIds: [7002], from, to, runIds: true });
	expect(res.status).toBe(200);
	const truth = res.data;
	const known = Array.from({ length: 200 }, (_, i) => runAt(stream, 7002, i)).filter(
		(r) => knownAt(r) >= from && knownAt(r) < to,
	);
	expect(truth.runIds).toEqual(known.map((r) => r.id));
	expect(truth.failedRuns).toBe(known.filter((r) => r.failed).length);
	for (const [, id] of truth.opened) {
		const i = known.find((r) => r.id === id)?.index ?? -1;
		expect(failsAt(stream, 7002, i) && !failsAt(stream, 7002, i - 1)).toBe(true);
	}
	for (const [, id, firstFailed] of truth.resolved) {
		const run = runAt(
			stream,
			7002,
			find((k) => runAt(stream, 7002, k).id === id),
		);
		expect(run.failed).toBe(false);
		expect(failsAt(stream, 7002, run.index - 1)).toBe(true);
		expect(firstFailed).toBeLessThan(id);
	}
	// Over two weeks the stream has incidents, and each one that opened also resolved.
	const fortnight = await control('runs/truth', {
		customerIds: [],
		bundleIds: [7001, 7002],
		from: ORIGIN,
		to: ORIGIN + 14 * DAY,
	});
	expect(fortnight.data.opened.length).toBeGreaterThan(3);
	expect(
		Math.abs(fortnight.data.opened.length - fortnight.data.resolved.length),
	).toBeLessThanOrEqual(2);
});

it('keeps recorded runs alongside, merged newest first, in the user-wide list too', async () => {
	const recorded = emu.recordRun({
		bundleId: 7001,
		outcome: 'failed',
		dateCreated: ORIGIN + DAY + 1,
	});
	const runs = await allRuns(7001);
	expect(runs.map((r) => r.id)).toContain(recorded.id);
	expect(runs).toHaveLength(visibleRuns(stream, 7001, ORIGIN + 2 * DAY).length + 3);
	const all: Listed[] = [];
	for (let page = 1; ; page++) {
		const res = await get(`/bundle/events?per-page=7&page=${page}`);
		expect(res.status).toBe(200);
		all.push(...res.data.data);
		if (!(page < Number(res.headers['x-pagination-page-count']))) break;
	}
	const ids = all.map((r) => r.id);
	expect(new Set(ids).size).toBe(ids.length);
	expect(ids).toContain(recorded.id);
	const dates = all.map((r) => r.dateCreated);
	expect([...dates].sort().reverse()).toEqual(dates);
	// Every page, at every depth, is the merge of the streams and the recorded runs, newest first.
	const now = ORIGIN + 2 * DAY;
	const streamed = [7001, 7002].flatMap((b) => {
		const visible = visibleRuns(stream, b, now);
		return Array.from({ length: visible.length }, (_, p) => visible.at(p));
	});
	const expected = [
		...streamed.map((r) => ({ id: r.id, at: r.start })),
		...emu
			.runs()
			.filter((r) => r.bundleId !== 7004)
			.map((r) => ({ id: r.id, at: r.dateCreated })),
	].sort((a, b) => b.at - a.at || b.id - a.id);
	expect(ids).toEqual(expected.map((r) => r.id));
});

it('stores nothing per run: a year later the stores hold what they held', async () => {
	const recordedBefore = emu.state.runHistory.runs.size;
	const stepsBefore = emu.state.runHistory.steps.size;
	await control('clock', { advanceSeconds: 365 * 86_400 });
	const page = await get('/bundle/events?bundleId=7002');
	expect(Number(page.headers['x-pagination-total-count'])).toBeGreaterThan(18_000);
	await get('/bundle/events?bundleId=7002&page=900');
	expect(emu.state.runHistory.runs.size).toBe(recordedBefore);
	expect(emu.state.runHistory.steps.size).toBe(stepsBefore);
	expect((await control('runs/streams')).data).toEqual({ bundles: 2, streams: 1 });
	expect(streamsOf(emu.state).size).toBe(2);
	emu.reset();
	expect(streamsOf(emu.state).size).toBe(0);
});

it('seeds a fleet on one stream (POST /fleet runsPerDay), and reads its truth by customer or prefix', async () => {
	const seeded = await control('fleet', {
		count: 3,
		idPrefix: 'acme-',
		runsPerDay: 100,
		runStream: { seed: 3, origin: ORIGIN },
	});
	expect(seeded.status).toBe(201);
	expect((await control('runs/streams')).data).toEqual({ bundles: 2 + 6, streams: 2 });
	expect(emu.runs().filter((r) => seeded.data.customers[0].bundleIds.includes(r.bundleId))).toEqual(
		[],
	);
	const window = { from: ORIGIN, to: ORIGIN + 2 * DAY };
	const all = (await control('runs/truth', { idPrefix: 'acme-', ...window })).data;
	const one = (await control('runs/truth', { customerIds: ['acme-00001'], ...window })).data;
	expect(all.bundles).toBe(6);
	expect(one.bundles).toBe(2);
	expect(one.runs).toBeGreaterThanOrEqual(2 * 100);
	expect(all.runs).toBeGreaterThan(one.runs * 2);
	expect((await control('runs/truth', { ...window })).status).toBe(400);
});

it('a frozen clock reads exactly where it was put, through moves; unfrozen it runs on from there', () => {
	emu.clock.freeze(true);
	emu.clock.set(ORIGIN);
	emu.clock.advance(1000);
	expect(emu.clock.now()).toBe(ORIGIN + 1000);
	emu.clock.freeze(false);
	expect(emu.clock.now()).toBeGreaterThanOrEqual(ORIGIN + 1000);
	expect(emu.clock.now()).toBeLessThan(ORIGIN + DAY);
	emu.reset();
	expect(Math.abs(emu.clock.now() - Date.now())).toBeLessThan(DAY);
});
