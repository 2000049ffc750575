/**
 * Run → Get New, Group Into Incidents: per customer and automation, one item when an
 * automation starts failing, none while it keeps failing (or a reminder), one when it recovers.
 */
import { usePartnerEmulator } from '../../support/partnerSetup';
import {
	customerWithTwoAutomations,
	runClock,
	STATIC_DATA_MODELS,
	watcher,
} from '../../support/sweeps';

const ctx = usePartnerEmulator();

const HOUR = 3600000;
let shift = 0;
const realNow = Date.now.bind(Date);
beforeEach(() => {
	shift = 0;
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + shift);
});
afterEach(() => jest.restoreAllMocks());

const events = (json: Array<Record<string, unknown>>) =>
	json.map((item) => `${String(item.event)} ${String(item.bundleId)} ${String(item.failedRuns)}`);

// Incidents are read from the run history, not kept: the same items whether n8n hands each sweep
// the static data the last one saved (regular mode) or none (a queue-mode worker).
describe.each(STATIC_DATA_MODELS)(
	'Run → Get New, Group Into Incidents, %s',
	(_name, staticData) => {
		it('opens, stays quiet, reminds, and resolves with its duration and failed-run count', async () => {
			const emu = ctx.emu;
			const at = runClock(Date.now() - 60000);
			const [b1] = await customerWithTwoAutomations(emu, 'crm-expired');
			emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
			const w = watcher(emu, {
				partner: true,
				staticData,
				parameters: { groupIntoIncidents: true, remindAfterHours: 1 },
			});
			const sweep = async () => (await w.sweep([{ customer: 'crm-expired' }])).json;
			expect(await sweep()).toEqual([]); // first sweep: nothing failing

			const first = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			const opened = await sweep();
			expect(opened).toEqual([
				expect.objectContaining({
					event: 'incidentOpened',
					endUserId: 'crm-expired',
					installationId: expect.any(Number),
					installationTitle: 'Leads of crm-expired',
					bundleId: b1,
					bundleTitle: expect.any(String),
					failedRuns: 1,
					failedStep: expect.objectContaining({ error: 'Emulated step error' }),
					run: expect.objectContaining({ id: first.id, outcome: 'failed' }),
				}),
			]);

			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([]); // further failures: quiet
			shift = 30 * 60000;
			expect(await sweep()).toEqual([]);
			shift = HOUR + 60000;
			const reminder = await sweep();
			expect(events(reminder)).toEqual([`incidentReminder ${b1} 3`]);
			expect(reminder[0].openForSeconds).toBeGreaterThanOrEqual(3600);
			shift = HOUR + 30 * 60000;
			expect(await sweep()).toEqual([]); // one reminder per Remind After
			shift = 2 * HOUR + 2 * 60000;
			expect(events(await sweep())).toEqual([`incidentReminder ${b1} 3`]);

			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			const success = emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
			const resolved = await sweep();
			expect(events(resolved)).toEqual([`incidentResolved ${b1} 4`]);
			expect(resolved[0]).toMatchObject({
				firstFailedRunId: first.id,
				durationSeconds: 4, // from the first failed run to the success: runs one second apart (run dates)
				run: expect.objectContaining({ id: success.id }),
			});
			expect(await sweep()).toEqual([]);
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(events(await sweep())).toEqual([`incidentOpened ${b1} 1`]); // a new incident
		});

		it('two automations of one customer fail and recover independently', async () => {
			const emu = ctx.emu;
			const at = runClock(Date.now() - 60000);
			const [b1, b2] = await customerWithTwoAutomations(emu, 'two');
			const w = watcher(emu, {
				partner: true,
				staticData,
				parameters: { groupIntoIncidents: true },
			});
			const sweep = async () => events((await w.sweep([{ customer: 'two' }])).json);
			expect(await sweep()).toEqual([]);
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([`incidentOpened ${b1} 1`]);
			emu.recordRun({ bundleId: b2, outcome: 'failed', dateCreated: at() });
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([`incidentOpened ${b2} 1`]);
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([`incidentResolved ${b2} 1`]);
			emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
			expect(await sweep()).toEqual([`incidentResolved ${b1} 3`]);
		});

		it('a recovery far down the list (pages of other runs since the failure) is still resolved, with its count', async () => {
			const emu = ctx.emu;
			const at = runClock(Date.now() - 3 * HOUR);
			const [b1, b2] = await customerWithTwoAutomations(emu, 'busy');
			emu.setVariants({ pagination: 'headers' }); // pages of 50 runs, newest first
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
			const w = watcher(emu, {
				partner: true,
				staticData,
				parameters: { groupIntoIncidents: true },
			});
			const sweep = async () => events((await w.sweep([{ customer: 'busy' }])).json);
			expect(await sweep()).toEqual([]);
			emu.recordRun({ bundleId: b2, outcome: 'failed', dateCreated: at() });
			emu.recordRun({ bundleId: b2, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([`incidentOpened ${b2} 2`]);
			// 120 successful runs of the other automation: the failures are now on the list's third page.
			for (let i = 0; i < 120; i++)
				emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
			expect(await sweep()).toEqual([]);
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
			const resolved = await w.sweep([{ customer: 'busy' }]);
			expect(events(resolved.json)).toEqual([`incidentResolved ${b2} 2`]);
			expect(resolved.json[0].durationSeconds).toBe(122); // runs one second apart
			// The read went back to the success before the failures (page 3), not further.
			const pages = resolved.calls.filter((call) => call.startsWith('GET /bundle/events'));
			expect(pages).toHaveLength(3);
		});

		it('a customer swept again days later is not on its first sweep: a failing automation stays quiet', async () => {
			const emu = ctx.emu;
			const at = runClock(Date.now() - 60000);
			const [b1] = await customerWithTwoAutomations(emu, 'weekly');
			const w = watcher(emu, {
				partner: true,
				staticData,
				parameters: { groupIntoIncidents: true },
			});
			const sweep = async () => events((await w.sweep([{ customer: 'weekly' }])).json);
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([`incidentOpened ${b1} 1`]); // first sweep: failing now
			shift = 6 * 24 * HOUR; // within this week's or last week's mark
			emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
			expect(await sweep()).toEqual([]);
		});
		it('two sweeps at once (a long one and the next): each incident item comes once', async () => {
			const emu = ctx.emu;
			const at = runClock(Date.now() - 60000);
			const customers = ['o1', 'o2', 'o3'];
			const bundles = await Promise.all(
				customers.map(async (id) => await customerWithTwoAutomations(emu, id)),
			);
			const parameters = { groupIntoIncidents: true };
			const w = watcher(emu, { partner: true, staticData, parameters });
			const items = customers.map((customer) => ({ customer }));
			expect((await w.sweep(items)).json).toEqual([]);
			const both = async () => {
				const start = w.saved;
				const other = watcher(emu, {
					partner: true,
					staticData,
					parameters,
					workflowId: w.workflowId,
				});
				other.saved = start;
				const [a, b] = await Promise.all([w.sweep(items), other.sweep(items)]);
				return [...events(a.json), ...events(b.json)].sort();
			};
			for (const [n] of customers.entries())
				emu.recordRun({ bundleId: bundles[n][0], outcome: 'failed', dateCreated: at() });
			expect(await both()).toEqual(bundles.map(([b]) => `incidentOpened ${b} 1`).sort());
			for (const [n] of customers.entries())
				emu.recordRun({ bundleId: bundles[n][0], outcome: 'succeeded', dateCreated: at() });
			expect(await both()).toEqual(bundles.map(([b]) => `incidentResolved ${b} 1`).sort());
			expect(await both()).toEqual([]);
		});

		it("a customer's first sweep reports what is failing now, not incidents already over", async () => {
			const emu = ctx.emu;
			const at = runClock(Date.now() - 60000);
			const [b1, b2] = await customerWithTwoAutomations(emu, 'hist');
			for (const outcome of ['succeeded', 'failed', 'succeeded'] as const)
				emu.recordRun({ bundleId: b1, outcome, dateCreated: at() });
			for (const outcome of ['succeeded', 'failed', 'failed'] as const)
				emu.recordRun({ bundleId: b2, outcome, dateCreated: at() });
			const w = watcher(emu, {
				partner: true,
				staticData,
				parameters: { groupIntoIncidents: true, remindAfterHours: 1 },
			});
			expect(events((await w.sweep([{ customer: 'hist' }])).json)).toEqual([
				`incidentOpened ${b2} 2`,
			]);
			emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
			expect(events((await w.sweep([{ customer: 'hist' }])).json)).toEqual([
				`incidentResolved ${b2} 2`,
			]);
		});
	},
);
