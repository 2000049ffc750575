/**
 * Run → Get New at a fleet's size, small enough for the suite: what breaks when n8n's deduplication
 * store is the only record of the runs returned (queue mode: every sweep starts without static
 * data), and a store whose every call is slow (a list of hundreds of thousands of records).
 */
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, runClock, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();

const idsOf = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id));

/** Whether a store call's items hold the gate's marker. */
const isMarker = (item: unknown) => String(item).startsWith('gate\n');

/** Whether a store call's items hold `customer`'s run `runId` (the key ends with the run's ID). */
const holdsRun = (items: unknown[], customer: string, runId: number) =>
	items.some((i) => String(i).includes(customer) && String(i).endsWith(`\n${runId}`));

/** A promise a test resolves when it chooses: to order two sweeps' store calls. */
const signal = () => {
	let fire: () => void = () => {};
	const fired = new Promise<void>((resolve) => (fire = resolve));
	return { fire, fired };
};

describe('Run → Get New: what the store holds', () => {
	it('with Status Failed, only the failed runs: a succeeded one is never returned, so never recorded', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const customers = ['status-1', 'status-2'];
		const bundles = await Promise.all(
			customers.map(async (id) => await customerWithTwoAutomations(emu, id)),
		);
		const failed = bundles.map(([b1, b2]) => {
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
			return emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		});
		const w = watcher(emu, {
			partner: true,
			staticData: 'lost',
			parameters: { filters: { status: 'failed' } },
		});
		const items = customers.map((customer) => ({ customer }));
		expect(idsOf((await w.sweep(items)).json).sort()).toEqual(failed.map((run) => run.id).sort());
		const [row] = [...w.store().rows.entries()].filter(([key]) => key.startsWith(w.workflowId));
		// And each customer's known record; the gate's marker removed at the end.
		expect(row[1].data).toHaveLength(failed.length + customers.length);
		expect((await w.sweep(items)).json).toEqual([]);
	});
});

describe('Run → Get New: a store whose every call is slow', () => {
	it('the gate waits twice its slowest call: a run still comes once', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const [b1] = await customerWithTwoAutomations(emu, 'slow');
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		const w = watcher(emu, { partner: true, staticData: 'lost' });
		await w.sweep([{ customer: 'slow' }]); // the node's list exists
		const run = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		const store = w.store();
		let calls = 0;
		let arrived: () => void = () => {};
		const secondArrived = new Promise<void>((resolve) => (arrived = resolve));
		const wait = async (ms: number) => await new Promise((resolve) => setTimeout(resolve, ms));
		// Every call takes 800 ms or more between its read and its write. The second sweep's first
		// call reads before the first sweep's writes and writes 800 ms after it: later than a fixed
		// 500 ms wait, sooner than twice the first sweep's own call.
		store.betweenReadAndWrite = async () => {
			calls++;
			if (calls === 1) {
				await secondArrived;
				await wait(800);
			} else if (calls === 2) {
				arrived();
				await wait(1600);
			} else await wait(800);
		};
		try {
			const [a, b] = await Promise.all(
				[0, 1].map(
					async (worker) =>
						await watcher(emu, {
							partner: true,
							staticData: 'lost',
							workflowId: w.workflowId,
							worker,
						}).sweep([{ customer: 'slow' }]),
				),
			);
			expect(calls).toBeGreaterThanOrEqual(4); // both first calls met, and the gate asked again
			expect([...idsOf(a.json), ...idsOf(b.json)]).toEqual([run.id]);
		} finally {
			store.betweenReadAndWrite = undefined;
		}
	});
});

describe('Run → Get New: a gate waits as long as its worker’s store calls lately take', () => {
	// Measured at 30,000 customers: one gate's own calls took 0.1 s while the other worker's, under
	// the same load, held the list up to 2 s between their read and their write. Twice its own calls
	// was too short a wait; twice the slowest of the worker's recent calls covers the other worker's.
	it('a slow call a moment ago makes the next gate wait longer: another worker’s slow write is caught', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const victim = 'lately-victim';
		const slow = 'lately-slow';
		const [v1] = await customerWithTwoAutomations(emu, victim);
		const [x1] = await customerWithTwoAutomations(emu, slow);
		const options = { partner: true, staticData: 'lost' as const };
		const w = watcher(emu, options);
		const store = w.store();
		const wait = async (ms: number) => {
			await new Promise((resolve) => setTimeout(resolve, ms));
		};
		await w.sweep([{ customer: slow }]); // the node's list exists

		// This worker's calls are slow for one sweep (900 ms between read and write).
		const before = emu.recordRun({ bundleId: v1, outcome: 'succeeded', dateCreated: at() });
		store.betweenReadAndWrite = async () => await wait(900);
		try {
			expect(idsOf((await w.sweep([{ customer: victim }])).json)).toEqual([before.id]);
		} finally {
			store.betweenReadAndWrite = undefined;
		}

		// Then fast again; the other worker's gate reads before this one's writes and writes 1.2 s after.
		const failed = emu.recordRun({ bundleId: v1, outcome: 'failed', dateCreated: at() });
		const other = emu.recordRun({ bundleId: x1, outcome: 'failed', dateCreated: at() });
		// The victim's calls of this sweep: those holding its new run (later calls carry it too).
		const holdsFailed = (items: unknown[]) => holdsRun(items, victim, failed.id);
		let fire = { slowRead: () => {}, victimWrites: () => {} };
		const slowRead = new Promise<void>((resolve) => (fire.slowRead = resolve));
		const victimWrites = new Promise<void>((resolve) => (fire.victimWrites = resolve));
		let victimCalls = 0;
		store.beforeRead = async (items) => {
			if (!holdsFailed(items)) return;
			victimCalls++;
			if (items.some(isMarker) && victimCalls === 1) await slowRead;
		};
		store.betweenReadAndWrite = async (items) => {
			if (holdsFailed(items) && items.some(isMarker)) fire.victimWrites();
			// The slow gate's call: its run (this worker's later calls carry its known record too).
			if (!holdsRun(items, slow, other.id) || !items.some(isMarker)) return;
			fire.slowRead();
			await victimWrites;
			await wait(1200);
		};
		let answers: Array<Awaited<ReturnType<typeof w.sweep>>>;
		try {
			answers = await Promise.all(
				[victim, slow].map(
					async (customer, worker) =>
						await watcher(emu, { ...options, workflowId: w.workflowId, worker }).sweep([
							{ customer },
						]),
				),
			);
		} finally {
			store.beforeRead = undefined;
			store.betweenReadAndWrite = undefined;
			fire = { slowRead: () => {}, victimWrites: () => {} };
		}
		expect(answers.map(({ json }) => idsOf(json))).toEqual([[failed.id], [other.id]]);
		// Nothing erased for good: the next sweep of either returns nothing.
		const next = watcher(emu, { ...options, workflowId: w.workflowId });
		expect((await next.sweep([{ customer: victim }, { customer: slow }])).json).toEqual([]);
		// Its gate found its marker erased and asked again: the gate, its keys again, its keys at the end
		// (the marker's check holds none of its new keys).
		expect(victimCalls).toBe(3);
	});
});

describe('Run → Get New: records erased after the gate checked them', () => {
	// Seen at 30,000 customers in queue mode: a store call of one batch read the list before another
	// batch's gate wrote, and wrote it after that gate had checked its marker, erasing the whole
	// batch's records. Its customers' next sweep was a first sweep: their recoveries went unreported.
	it('a slower call of another execution erases a sweep’s records: the sweep puts them back before it ends', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.now() - 600000);
		const victim = 'erased-victim';
		const slow = 'erased-slow';
		const [v1] = await customerWithTwoAutomations(emu, victim);
		const [x1] = await customerWithTwoAutomations(emu, slow);
		const options = { partner: true, staticData: 'lost' as const };
		const parameters = { groupIntoIncidents: true };
		const w = watcher(emu, { ...options, parameters });
		await w.sweep([{ customer: slow }]); // the node's list exists
		const failed = emu.recordRun({ bundleId: v1, outcome: 'failed', dateCreated: at() });
		const otherFailed = emu.recordRun({ bundleId: x1, outcome: 'failed', dateCreated: at() });

		const store = w.store();
		// A sweep's calls: those holding its new run (this worker's later calls carry it too).
		const runOf: Record<string, number> = { [victim]: failed.id, [slow]: otherFailed.id };
		const has = (items: unknown[], customer: string) => holdsRun(items, customer, runOf[customer]);
		const slowRead = signal();
		const slowMayWrite = signal();
		const slowWrote = signal();
		let victimWrites = 0;
		let slowCalls = 0;
		// The slow sweep's gate reads first and writes only once the victim's gate has checked its
		// marker (its next call, or its end); the victim's call after its check reads after that write.
		store.beforeRead = async (items) => {
			if (has(items, slow) && slowCalls++ === 1) slowWrote.fire();
			if (has(items, victim) && items.some(isMarker)) await slowRead.fired;
			else if (has(items, victim) && victimWrites++ === 0) {
				slowMayWrite.fire();
				await slowWrote.fired;
			}
		};
		store.betweenReadAndWrite = async (items) => {
			if (!has(items, slow) || !items.some(isMarker)) return;
			slowRead.fire();
			await slowMayWrite.fired;
		};
		let first: Awaited<ReturnType<typeof w.sweep>>;
		try {
			[first] = await Promise.all([
				watcher(emu, { ...options, workflowId: w.workflowId, parameters })
					.sweep([{ customer: victim }])
					.finally(() => slowMayWrite.fire()),
				watcher(emu, { ...options, workflowId: w.workflowId, parameters, worker: 1 }).sweep([
					{ customer: slow },
				]),
			]);
		} finally {
			store.beforeRead = undefined;
			store.betweenReadAndWrite = undefined;
		}
		expect(first.json.map((item) => item.event)).toEqual(['incidentOpened']);

		// The victim recovers: its incident resolves (a first sweep would have taken it as history).
		emu.recordRun({ bundleId: v1, outcome: 'succeeded', dateCreated: at() });
		const next = await watcher(emu, { ...options, workflowId: w.workflowId, parameters }).sweep([
			{ customer: victim },
		]);
		expect(next.json).toEqual([
			expect.objectContaining({ event: 'incidentResolved', firstFailedRunId: failed.id }),
		]);
		expect(victimWrites).toBe(1); // its call after the check, which found the records gone
	});
});

describe('Run → Get New: records erased after the sweep ended', () => {
	// Seen at 30,000 customers: a batch's records were put back at its end, then erased again by the
	// other worker's call that had read the list before; that batch's next sweep was a first sweep.
	it('another worker erases a sweep’s records once it has ended: this worker’s next store call puts them back', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const [victim, slow, later] = ['ended-victim', 'ended-slow', 'ended-later'];
		const [v1] = await customerWithTwoAutomations(emu, victim);
		const [x1] = await customerWithTwoAutomations(emu, slow);
		const [l1] = await customerWithTwoAutomations(emu, later);
		const options = { partner: true, staticData: 'lost' as const };
		const w = watcher(emu, options);
		emu.recordRun({ bundleId: l1, outcome: 'failed', dateCreated: at() });
		await w.sweep([{ customer: later }]); // the node's list exists
		const failed = emu.recordRun({ bundleId: v1, outcome: 'failed', dateCreated: at() });
		const other = emu.recordRun({ bundleId: x1, outcome: 'failed', dateCreated: at() });

		const store = w.store();
		const listSize = () =>
			[...store.rows]
				.filter(([context]) => context.startsWith(`${w.workflowId}\u0000n:`))
				.reduce((size, [, row]) => size + row.data.length, 0);
		const slowRead = signal();
		const victimEnded = signal();
		const sizes = { slowRead: 0, victimEnded: 0 };
		// The slow sweep's gate (worker 1) reads before the victim's sweep (worker 0) starts, and
		// writes what it read once that sweep has ended, its records checked and put back.
		store.beforeRead = async (items) => {
			if (holdsRun(items, victim, failed.id) && items.some(isMarker)) await slowRead.fired;
		};
		store.betweenReadAndWrite = async (items) => {
			if (!holdsRun(items, slow, other.id) || !items.some(isMarker)) return;
			sizes.slowRead = listSize();
			slowRead.fire();
			await victimEnded.fired;
		};
		let answers: Array<Awaited<ReturnType<typeof w.sweep>>>;
		try {
			answers = await Promise.all([
				watcher(emu, { ...options, workflowId: w.workflowId })
					.sweep([{ customer: victim }])
					.finally(() => {
						sizes.victimEnded = listSize();
						victimEnded.fire();
					}),
				watcher(emu, { ...options, workflowId: w.workflowId, worker: 1 }).sweep([
					{ customer: slow },
				]),
			]);
		} finally {
			store.beforeRead = undefined;
			store.betweenReadAndWrite = undefined;
		}
		expect(answers.map(({ json }) => idsOf(json))).toEqual([[failed.id], [other.id]]);
		// Its run and its known record (a first sweep without static data); its marker removed.
		expect(sizes.victimEnded - sizes.slowRead).toBe(2);
		// Erased: the list holds what the slow gate read, its own run and known record.
		expect(listSize()).toBe(sizes.slowRead + 2);

		// Worker 0's next sweep (another customer's run) carries the victim's records back.
		const next = emu.recordRun({ bundleId: l1, outcome: 'failed', dateCreated: at() });
		const laterSweep = await watcher(emu, { ...options, workflowId: w.workflowId }).sweep([
			{ customer: later },
		]);
		expect(idsOf(laterSweep.json)).toEqual([next.id]);
		// The victim's run and known record back, and the later sweep's run (markers removed).
		expect(listSize()).toBe(sizes.slowRead + 2 + 2 + 1);

		// The victim's next sweep, on the other worker: its run is not returned again.
		const again = await watcher(emu, { ...options, workflowId: w.workflowId, worker: 1 }).sweep([
			{ customer: victim },
		]);
		expect(again.json).toEqual([]);
	});
});

describe('Run → Get New: one worker’s store calls, one at a time', () => {
	it('two sweeps of one worker never meet in the store (a 5 ms store, 10 pairs at the same instant)', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const customers = ['queue-1', 'queue-2'];
		const bundles = await Promise.all(
			customers.map(async (id) => await customerWithTwoAutomations(emu, id)),
		);
		const items = customers.map((customer) => ({ customer }));
		const w = watcher(emu, { partner: true, staticData: 'lost' });
		await w.sweep(items); // the node's list exists
		const store = w.store();
		const before = { overlaps: store.overlaps, calls: store.calls };
		store.betweenReadAndWrite = async () => await new Promise((resolve) => setTimeout(resolve, 5));
		const returned: number[] = [];
		const recorded: number[] = [];
		try {
			for (let pair = 0; pair < 10; pair++) {
				for (const [n] of customers.entries())
					recorded.push(
						emu.recordRun({ bundleId: bundles[n][0], outcome: 'failed', dateCreated: at() }).id,
					);
				const sweeps = await Promise.all(
					[0, 1].map(
						async () =>
							await watcher(emu, {
								partner: true,
								staticData: 'lost',
								workflowId: w.workflowId,
							}).sweep(items),
					),
				);
				for (const sweep of sweeps) returned.push(...idsOf(sweep.json));
			}
		} finally {
			store.betweenReadAndWrite = undefined;
		}
		expect(store.calls - before.calls).toBeGreaterThanOrEqual(40); // both sweeps of every pair
		expect(store.overlaps).toBe(before.overlaps);
		expect(returned.sort()).toEqual(recorded.sort());
	});
});

describe('Run → Get New: the names are asked during the gate’s wait', () => {
	it('by the gate’s check, the new run’s installation was already named (the wait no longer adds to the sweep)', async () => {
		const emu = ctx.emu;
		const at = runClock();
		const [b1] = await customerWithTwoAutomations(emu, 'overlap');
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		const w = watcher(emu, { partner: true, staticData: 'lost' });
		await w.sweep([{ customer: 'overlap' }]); // the node's list exists
		const run = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		const store = w.store();
		const namedBy: Array<{ marker: boolean; named: number }> = [];
		const before = emu.requests.length;
		const naming = () =>
			emu.requests.slice(before).filter((r) => r.path.startsWith('/solution/installation')).length;
		store.beforeRead = async (items) => {
			namedBy.push({ marker: items.some(isMarker), named: naming() });
		};
		try {
			const sweep = await w.sweep([{ customer: 'overlap' }]);
			expect(idsOf(sweep.json)).toEqual([run.id]);
			expect(sweep.json[0].installationTitle).toEqual(expect.any(String));
		} finally {
			store.beforeRead = undefined;
		}
		// The gate's calls hold its marker: the recording (nothing named yet), then the check (named).
		const [recording, check] = namedBy.filter((call) => call.marker);
		expect(recording).toEqual({ marker: true, named: 0 });
		expect(check?.named).toBeGreaterThan(0);
	});
});
