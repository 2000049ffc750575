/**
 * Run → Get New from node version 5: what one sweep by windows reads (window/windowRead.ts). A list
 * that reads newest first is read down to the runs that ended before the window, less the lateness,
 * and a first sweep down to Max Remembered Runs per Customer. Access Token credential: the
 * emulator's fixture end user, pages of 50 runs.
 */
import { realNow, useNodeClock } from '../../support/nodeClock';
import { TICK_MS } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import { useEmulator } from '../../support/setup';
import { watcher } from '../../support/sweeps';

const ctx = useEmulator();
const MINUTE = 60_000;
/** The node's clock (Date.now) set to `at` by setNow. */
const { setNow } = useNodeClock();

const pagesRead = (calls: string[]) =>
	calls.filter((call) => call.startsWith('GET /bundle/events')).length;
/** The `per-page` of each runs page asked for. */
const perPages = (calls: string[]) =>
	calls
		.filter((call) => call.startsWith('GET /bundle/events'))
		.map((call) => new URLSearchParams(call.split('?')[1]).get('per-page'));

it('a list newest first: one page for a first sweep and one for the next, which returns its window', async () => {
	const emu = ctx.emu;
	emu.setVariants({ pagination: 'headers', runOrder: 'newest' });
	const t0 = Math.floor((realNow() + 700 * 24 * 60 * MINUTE) / TICK_MS) * TICK_MS;
	// 120 runs that ended long before the first window (the fixture's runs are older still).
	for (let n = 0; n < 120; n++)
		emu.recordRun({ bundleId: 7001, outcome: 'succeeded', dateCreated: t0 - (240 - n) * MINUTE });
	const w = watcher(emu, {
		version: 5,
		parameters: { options: { latenessMinutes: 10, maxRunsPerCustomer: 10 } },
	});
	setNow(t0);
	const first = await w.sweep([{}]);
	expect(first.json).toHaveLength(10);
	const fresh = [1, 2, 3].map(
		(n) => emu.recordRun({ bundleId: 7002, outcome: 'failed', dateCreated: t0 + n * MINUTE }).id,
	);
	setNow(t0 + 30 * MINUTE);
	const next = await w.sweep([{}]);
	expect(next.json.map((run) => run.id)).toEqual(fresh);
	expect([pagesRead(first.calls), pagesRead(next.calls)]).toEqual([1, 1]);
	// A first sweep asks for pages of 50; the next reads back 40 minutes: a short read of 25.
	expect([...perPages(first.calls), ...perPages(next.calls)]).toEqual(['50', '25']);
	// 60 runs in the next window (it starts at t0 + 20 min): the short page is not enough, so the read
	// starts again at 50 a page; page 1's oldest run started less than the lateness after the
	// window's start, so page 2 is read too.
	const many = Array.from(
		{ length: 60 },
		(_, n) =>
			emu.recordRun({
				bundleId: 7001,
				outcome: 'succeeded',
				dateCreated: t0 + 25 * MINUTE + n * 1000,
			}).id,
	);
	setNow(t0 + 60 * MINUTE);
	const busy = await w.sweep([{}]);
	expect(busy.json.map((run) => run.id)).toEqual(many);
	expect(perPages(busy.calls)).toEqual(['25', '50', '50']);
	// After 6 hours without a sweep, the read reaches back further than SHORT_READ_MS: 50 a page.
	const late = emu.recordRun({ bundleId: 7002, outcome: 'failed', dateCreated: t0 + 300 * MINUTE });
	setNow(t0 + 420 * MINUTE);
	const catchUp = await w.sweep([{}]);
	expect(catchUp.json.map((run) => run.id)).toEqual([late.id]);
	expect(perPages(catchUp.calls)).toEqual(['50']);
});

it('a list oldest first is read whole: a first sweep gives the newest runs and the next its window, past the depth', async () => {
	const emu = ctx.emu;
	emu.setVariants({ pagination: 'headers', runOrder: 'oldest' });
	const t0 = Math.floor((realNow() + 700 * 24 * 60 * MINUTE) / TICK_MS) * TICK_MS;
	// More history than the depth a window reads newest first (10 × Max Runs per Customer).
	const old = Array.from(
		{ length: 120 },
		(_, n) =>
			emu.recordRun({ bundleId: 7001, outcome: 'succeeded', dateCreated: t0 - (240 - n) * MINUTE })
				.id,
	);
	const w = watcher(emu, {
		version: 5,
		parameters: { options: { latenessMinutes: 10, maxRunsPerCustomer: 10 } },
	});
	setNow(t0);
	const first = await w.sweep([{}]);
	expect(first.json.map((run) => run.id)).toEqual(old.slice(-10));
	const fresh = [1, 2, 3].map(
		(n) => emu.recordRun({ bundleId: 7002, outcome: 'failed', dateCreated: t0 + n * MINUTE }).id,
	);
	setNow(t0 + 30 * MINUTE);
	const next = await w.sweep([{}]);
	expect(next.json.map((run) => run.id)).toEqual(fresh);
});
