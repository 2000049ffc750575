/**
 * Run → Get New from node version 5 with Runs Of set to one installation or one automation: the
 * sweep by windows reads that list only (window/windowRead.ts) and returns its runs once, after
 * their lateness. Access Token credential: the emulator's fixture end user (installations 5001 and
 * 5002, automation 7003 in 5002).
 */
import { realNow, useNodeClock } from '../../support/nodeClock';
import { TICK_MS } from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import { useEmulator } from '../../support/setup';
import { watcher } from '../../support/sweeps';

const ctx = useEmulator();
const MINUTE = 60_000;
/** The node's clock (Date.now) set to `at` by setNow. */
const { setNow } = useNodeClock();

const installation = { __rl: true, mode: 'id', value: '5002' };
const paths = (calls: string[]) => calls.map((call) => call.split('?')[0]);

it.each([
	['installation', { runsOf: 'installation', installationId: installation }],
	['automation', { runsOf: 'bundle', installationId: installation, bundleId: 7003 }],
])('Runs Of one %s: its runs only, each once, after the lateness', async (scope, parameters) => {
	const emu = ctx.emu;
	const t0 = Math.floor((realNow() + 600 * 24 * 60 * MINUTE) / TICK_MS) * TICK_MS;
	const w = watcher(emu, {
		version: 5,
		parameters: { ...parameters, options: { latenessMinutes: 10 } },
	});
	setNow(t0);
	const first = await w.sweep([{}]);
	expect(first.errors).toEqual([]);
	expect(first.json.length).toBeGreaterThan(0);
	expect(new Set(first.json.map((run) => run.bundleId))).toEqual(new Set([7003]));
	expect(paths(first.calls)).toEqual(
		scope === 'installation'
			? ['GET /solution/installation/5002', 'GET /bundle/events']
			: ['GET /bundle/events'],
	);
	const mine = emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: t0 + MINUTE });
	emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: t0 + MINUTE });
	setNow(t0 + 5 * MINUTE);
	expect((await w.sweep([{}])).json).toEqual([]);
	setNow(t0 + 30 * MINUTE);
	const next = await w.sweep([{}]);
	expect(next.json.map((run) => [run.id, run.bundleId, run.installationId])).toEqual([
		[mine.id, 7003, 5002],
	]);
	setNow(t0 + 60 * MINUTE);
	expect((await w.sweep([{}])).json).toEqual([]);
});
