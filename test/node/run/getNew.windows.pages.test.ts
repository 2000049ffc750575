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
	// 60 runs in the next window (it starts at t0 + 20 min): page 1's oldest run started less than the
	// lateness after that start, so page 2 is read too.
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
	expect(pagesRead(busy.calls)).toBe(2);
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
