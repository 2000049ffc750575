/**
 * Run → Get New: a workflow saved by the release before issue 54, with the memory that release
 * wrote, upgrades with no run returned twice or missed. That release recorded in n8n's
 * deduplication store every run it returned (never removed), two first-sweep marks per customer a
 * week and a marker per execution, and kept in static data each customer's newest ended runs
 * (up to Max Remembered Runs per Customer) with a floor. Both are written here as it wrote them.
 */
import type { IDataObject } from 'n8n-workflow';

import { runGateKey, sweptGateKey } from '../../../nodes/shared/readers/runKeys';
import { SHIFT_MARGIN } from '../../../nodes/AlbatoSolutions/actions/run/runWindow';
import { usePartnerEmulator } from '../../support/partnerSetup';
import {
	customerWithTwoAutomations,
	runClock,
	STATIC_DATA_MODELS,
	WATCH_NODE,
	watcher,
} from '../../support/sweeps';

const ctx = usePartnerEmulator();

const WEEK_MS = 7 * 86_400_000;
const idsOf = (json: IDataObject[]) => json.map((run) => Number(run.id));

/** The customer key the node gives `customer` (read from its gate's first store call). */
async function customerKeyOf(emu: Parameters<typeof watcher>[0], customer: string) {
	const probe = watcher(emu, { partner: true, staticData: 'lost' });
	const store = probe.store();
	let key = '';
	store.beforeRead = async (items) => {
		const run = items.map(String).find((item) => !item.startsWith('gate\n'));
		if (run && !key) key = run.slice(0, run.lastIndexOf('\n'));
	};
	try {
		await probe.sweep([{ customer }]);
	} finally {
		store.beforeRead = undefined;
	}
	return key;
}

/** The memory the release before wrote for `key` after returning `runs` (see the file's note). */
async function writeOldMemory(
	w: ReturnType<typeof watcher>,
	key: string,
	runs: Array<{ id: number; dateCreated: number }>,
	staticData: boolean,
) {
	const week = Math.floor(Date.now() / WEEK_MS);
	const old = [
		...runs.map((run) => runGateKey(key, run.id)),
		sweptGateKey(key, week),
		sweptGateKey(key, week - 1),
		`gate\nold-execution-1\n${Date.now()}\n0.1`,
		`gate\nold-execution-2\n${Date.now()}\n0.2`,
	];
	const context = { workflow: { id: w.workflowId }, node: { id: 'watch-node-id' } } as never;
	await w.store().checkProcessedAndRecord(old, 'node', context, { mode: 'entries' });
	if (!staticData) return;
	const ended = [...runs].reverse().map((run) => [String(run.id), run.dateCreated]);
	const customers = { [key]: { ended, pending: [], sweptAt: Date.now() } };
	w.saved = { [`node:${WATCH_NODE}`]: { getNewRuns: { version: 1, customers } } };
}

describe.each(STATIC_DATA_MODELS)(
	'Run → Get New upgrades with its stored memory, %s',
	(_name, model) => {
		it.each([
			['runs', {}],
			['incidents', { groupIntoIncidents: true }],
		])(
			'%s: nothing twice, nothing missed, the old records read as handled',
			async (_kind, parameters) => {
				const emu = ctx.emu;
				const at = runClock(Date.now() - 3_600_000);
				const customer = `legacy-${model}-${_kind}`;
				const [b1, b2] = await customerWithTwoAutomations(emu, customer);
				const before = Array.from({ length: 60 }, (_, i) =>
					emu.recordRun({
						bundleId: i % 2 ? b2 : b1,
						// Automation 1 fails from run 50 on: an incident the old release opened.
						outcome: i % 2 === 0 && i >= 50 ? 'failed' : 'succeeded',
						dateCreated: at(),
					}),
				);
				const key = await customerKeyOf(emu, customer);
				expect(key).toContain(customer);

				const w = watcher(emu, { partner: true, staticData: model, parameters });
				const context = { workflow: { id: w.workflowId }, node: { id: 'watch-node-id' } } as never;
				await writeOldMemory(w, key, before, model === 'kept');
				const listSize = async () => await w.store().getProcessedDataCount('node', context);
				expect(await listSize()).toBe(64);

				// After the upgrade: three new runs, automation 1 recovering.
				const recovery = emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
				const news = [
					recovery,
					...[1, 2].map(() =>
						emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() }),
					),
				];
				const first = await w.sweep([{ customer }]);
				expect(first.errors).toEqual([]);
				if (_kind === 'runs') expect(idsOf(first.json)).toEqual(news.map((run) => run.id));
				else
					expect(first.json).toEqual([
						expect.objectContaining({
							event: 'incidentResolved',
							bundleId: b1,
							failedRuns: 5,
							firstFailedRunId: before[50].id,
						}),
					]);
				expect((await w.sweep([{ customer }])).json).toEqual([]);
				// The records the last sweep kept that the new runs pushed to position 20 or further are gone
				// (3 new runs, and SHIFT_MARGIN more); the older ones (never read as new again: more than
				// LATE_RUNS below the newest handled), the weekly marks and the old markers stay. The
				// customer's known record is added without static data or with incidents.
				const runsLeft = before.length + news.length - (news.length + SHIFT_MARGIN);
				const kept = runsLeft + 2 + 2 + (_kind === 'incidents' || model === 'lost' ? 1 : 0);
				expect(await listSize()).toBe(kept);
			},
		);
	},
);
