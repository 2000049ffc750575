/**
 * Run → Get New from node version 5, run by hand (a manual execution, docs/runs.md, "Sweep
 * windows"): it shows what a first sweep would, up to now (no lateness waited for), and reads and
 * writes no store, so the schedule's first sweep after it is still the group's first.
 */
import { realNow, useNodeClock } from '../../support/nodeClock';
import { TICK_MS } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();
const MINUTE = 60_000;
/** The node's clock (Date.now) set to `at` by setNow. */
const { setNow } = useNodeClock();

const ids = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id)).sort();

it('a manual execution returns the newest runs up to now and leaves the store as it was', async () => {
	const emu = ctx.emu;
	const t0 = Math.floor((realNow() + 500 * 24 * 60 * MINUTE) / TICK_MS) * TICK_MS;
	const [b1, b2] = await customerWithTwoAutomations(emu, 'm-a');
	const items = [{ customer: 'm-a' }];
	const w = watcher(emu, {
		partner: true,
		staticData: 'lost',
		version: 5,
		parameters: { options: { latenessMinutes: 10 } },
	});
	const rows = () => [...w.store().rows.keys()].filter((key) => key.startsWith(`${w.workflowId}`));
	const old = emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: t0 - 180 * MINUTE });
	const recent = emu.recordRun({ bundleId: b2, outcome: 'failed', dateCreated: t0 + MINUTE });
	setNow(t0 + 3 * MINUTE);
	const manual = await w.sweep(items, { mode: 'manual' });
	expect(manual.errors).toEqual([]);
	expect(ids(manual.json)).toEqual(ids([old, recent]));
	expect(rows()).toEqual([]);
	// Still the group's first sweep: the newest runs before its window (the lateness waited for).
	const first = await w.sweep(items);
	expect(ids(first.json)).toEqual([old.id]);
	expect(rows()).not.toEqual([]);
	// By hand again: the same answer, whatever the schedule has swept.
	expect(ids((await w.sweep(items, { mode: 'manual' })).json)).toEqual(ids([old, recent]));
});
