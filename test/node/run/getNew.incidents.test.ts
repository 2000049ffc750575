/**
 * Run → Get New, Group Into Incidents (issue 30): per customer and automation, one item when an
 * automation starts failing, none while it keeps failing (or a reminder), one when it recovers.
 */
import { usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, runClock, watcher } from '../../support/sweeps';

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

describe('Run → Get New, Group Into Incidents', () => {
	it('opens, stays quiet, reminds, and resolves with its duration and failed-run count', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.now() - 60000);
		const [b1] = await customerWithTwoAutomations(emu, 'crm-expired');
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		const w = watcher(emu, {
			partner: true,
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
		const w = watcher(emu, { partner: true, parameters: { groupIntoIncidents: true } });
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
});
