/**
 * Run → Get New's store stays bounded by the fleet (issue 54): however many runs the customers have
 * and however many sweeps, the node's list in n8n's deduplication store holds at most KEPT_RUNS
 * records per customer (and, with incidents, its known record). Queue mode: no static data.
 */
import { KEPT_RUNS } from '../../../nodes/AlbatoSolutions/actions/run/runWindow';
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, runClock, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();

const idsOf = (json: Array<{ id?: unknown }>) => json.map((run) => Number(run.id));
const limit = (maxRunsTotal: number) => ({ parameters: { options: { maxRunsTotal } } });

/** The records of the watcher's node in n8n's store. */
const listSize = (w: ReturnType<typeof watcher>) =>
	[...w.store().rows]
		.filter(([context]) => context.startsWith(`${w.workflowId}\u0000n:`))
		.reduce((size, [, row]) => size + row.data.length, 0);

it('the store stays bounded: 20 customers, 4 runs each per sweep, 12 sweeps: each run once, at most 20 records a customer, the old option ignored', async () => {
	const emu = ctx.emu;
	const at = runClock();
	const customers = Array.from({ length: 20 }, (_, n) => `fleet-${n}`);
	const bundles = await Promise.all(
		customers.map(async (id) => await customerWithTwoAutomations(emu, id)),
	);
	const recordEach = () =>
		bundles.flatMap((pair) =>
			[...pair, ...pair].map((bundleId, n) =>
				emu.recordRun({ bundleId, outcome: n % 2 ? 'succeeded' : 'failed', dateCreated: at() }),
			),
		);
	const items = customers.map((customer) => ({ customer }));
	// Queue mode (no static data), Max Remembered Runs in Total saved at its minimum: ignored.
	const w = watcher(emu, { partner: true, staticData: 'lost' });
	const returned: number[] = [];
	const recorded: number[] = [];
	for (let sweep = 0; sweep < 12; sweep++) {
		recorded.push(...recordEach().map((run) => run.id));
		const answer = await w.sweep(items, limit(100));
		expect(answer.errors).toEqual([]);
		returned.push(...idsOf(answer.json));
		expect(listSize(w)).toBeLessThanOrEqual(customers.length * (KEPT_RUNS + 1));
	}
	expect(returned.length).toBe(20 * 4 * 12); // 48 a customer
	expect(new Set(returned).size).toBe(returned.length);
	expect(new Set(returned)).toEqual(new Set(recorded));
	// The newest 20 of each customer and its known record, no marker, whatever the run count.
	expect(listSize(w)).toBe(customers.length * (KEPT_RUNS + 1));
	expect((await w.sweep(items)).json).toEqual([]);
});

it('the store stays bounded with Group Into Incidents: one known record a customer, no weekly marks; no incident twice', async () => {
	const emu = ctx.emu;
	const at = runClock(Date.now() - 600000);
	const customers = Array.from({ length: 20 }, (_, n) => `incident-${n}`);
	const bundles = await Promise.all(
		customers.map(async (id) => await customerWithTwoAutomations(emu, id)),
	);
	const items = customers.map((customer) => ({ customer }));
	const w = watcher(emu, {
		partner: true,
		staticData: 'lost',
		parameters: { groupIntoIncidents: true },
	});
	const events: string[] = [];
	for (let sweep = 0; sweep < 15; sweep++) {
		for (const [b1, b2] of bundles) {
			emu.recordRun({
				bundleId: b1,
				outcome: sweep % 5 === 4 ? 'succeeded' : 'failed',
				dateCreated: at(),
			});
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
		}
		const answer = await w.sweep(items);
		expect(answer.errors).toEqual([]);
		events.push(...answer.json.map((item) => `${String(item.endUserId)} ${String(item.event)}`));
		expect(listSize(w)).toBeLessThanOrEqual(customers.length * (KEPT_RUNS + 1));
	}
	// Per customer: opened on the first sweep, resolved at sweeps 4, 9, 14, opened again at 5, 10.
	for (const customer of customers)
		expect(events.filter((event) => event.startsWith(`${customer} `))).toEqual([
			`${customer} incidentOpened`,
			`${customer} incidentResolved`,
			`${customer} incidentOpened`,
			`${customer} incidentResolved`,
			`${customer} incidentOpened`,
			`${customer} incidentResolved`,
		]);
	expect(listSize(w)).toBe(customers.length * (KEPT_RUNS + 1));
});

it('the store stays bounded with Remind After: an incident open for 6 hours keeps at most 2 reminders, none once it is over', async () => {
	const HOUR = 3_600_000;
	const realNow = Date.now.bind(Date);
	let shift = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
	try {
		const emu = ctx.emu;
		const at = runClock(Date.now() - 60000);
		const [b1] = await customerWithTwoAutomations(emu, 'reminded');
		const w = watcher(emu, {
			partner: true,
			staticData: 'lost',
			parameters: { groupIntoIncidents: true, remindAfterHours: 1 },
		});
		const sweep = async () =>
			(await w.sweep([{ customer: 'reminded' }])).json.map((item) => String(item.event));
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		expect(await sweep()).toEqual(['incidentOpened']);
		const events: string[] = [];
		for (let hour = 1; hour <= 6; hour++) {
			shift = hour * HOUR + 60000;
			events.push(...(await sweep()));
			// 2 runs, the known record, at most the last two reminders.
			expect(listSize(w)).toBeLessThanOrEqual(2 + 1 + 2);
		}
		expect(events).toEqual(Array.from({ length: 6 }, () => 'incidentReminder'));
		const recovered = Date.now() + 1000;
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: recovered });
		expect(await sweep()).toEqual(['incidentResolved']);
		shift += HOUR + 60000; // a Remind After later, with a new run: the reminders go
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: Date.now() });
		expect(await sweep()).toEqual([]);
		expect(listSize(w)).toBe(4 + 1); // 4 runs and the known record
	} finally {
		jest.restoreAllMocks();
	}
});
