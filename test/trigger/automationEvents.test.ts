/**
 * Automation Failing / Automation Recovered: Run → Get New's Group Into Incidents
 * in the trigger, for one end user, through n8n-core's PollContext against the emulator. Opened
 * once, quiet while failing, recovered once with its duration and failed-run count; two automations
 * independently; the first poll reports the automations failing then (as Get New's first sweep
 * does); partner mode and the Access Token credential; the sample has a real event's fields.
 */
import type { IDataObject, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';

import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { FIXTURE_RUN_IDS } from '../../emulator/handlers/runs';
import { INCIDENT_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/incidentPoll';
import { USAGE_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/usagePoll';
import { EVENTS } from '../../nodes/AlbatoSolutionsTrigger/installationEvents';
import { RUN_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/runEvents';
import { pollContext } from '../../harness';
import { partnerCredential, usePartnerEmulator } from '../support/partnerSetup';
import { customerWithTwoAutomations, runClock } from '../support/sweeps';

const ctx = usePartnerEmulator();

const BOTH = ['automationFailing', 'automationRecovered'];

function context(
	staticData: IDataObject,
	{
		events = BOTH,
		partner,
		mode = 'trigger',
		solutionId,
	}: { events?: string[]; partner?: string; mode?: 'trigger' | 'manual'; solutionId?: string } = {},
): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: {
			events,
			...(solutionId ? { solutionId: { __rl: true, mode: 'id', value: solutionId } } : {}),
			...(partner ? { authentication: 'partnerApi', endUserId: partner } : {}),
		},
		credentials: partner
			? { albatoPartnerApi: partnerCredential(ctx.emu) }
			: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() } },
		staticData,
		mode,
	});
}

async function poll(context: IPollFunctions) {
	const output = await new AlbatoSolutionsTrigger().poll.call(context);
	return output ? output[0].map((item) => item.json) : [];
}

const summary = (items: IDataObject[]) =>
	items.map((item) => `${String(item.event)} ${String(item.bundleId)} ${String(item.failedRuns)}`);

const eventsRead = (from: number) =>
	ctx.emu.requests.slice(from).filter((r) => r.method === 'GET' && r.path === '/bundle/events');

describe('Automation Failing / Automation Recovered, partner mode', () => {
	it('opened once, quiet while failing, recovered once with duration and failed count; two automations independently', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.UTC(2026, 0, 1, 8, 0, 0));
		const [b1, b2] = await customerWithTwoAutomations(emu, 'crm-expired');
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
		const staticData: IDataObject = {};
		const watch = async () => await poll(context(staticData, { partner: 'crm-expired' }));

		expect(await watch()).toEqual([]); // first poll: nothing failing now

		const first = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		const opened = await watch();
		expect(opened).toEqual([
			expect.objectContaining({
				event: 'automationFailing',
				endUserId: 'crm-expired',
				installationId: expect.any(Number),
				installationTitle: 'Leads of crm-expired',
				bundleId: b1,
				bundleTitle: expect.any(String),
				failedRuns: 1,
				openedAt: new Date(first.dateCreated).toISOString(),
				failedStep: expect.objectContaining({ error: 'Emulated step error' }),
				run: expect.objectContaining({ id: first.id, outcome: 'failed', endUserId: 'crm-expired' }),
			}),
		]);

		// Further failures of b1: quiet. b2 starts failing on its own: its own incident.
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		expect(await watch()).toEqual([]);
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		emu.recordRun({ bundleId: b2, outcome: 'failed', dateCreated: at() });
		expect(summary(await watch())).toEqual([`automationFailing ${b2} 1`]);
		expect(await watch()).toEqual([]);

		// b1 recovers (b2 still failing): one Automation Recovered, with how long and how many.
		const success = emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		const recovered = await watch();
		expect(summary(recovered)).toEqual([`automationRecovered ${b1} 3`]);
		expect(recovered[0]).toMatchObject({
			endUserId: 'crm-expired',
			firstFailedRunId: first.id,
			resolvedAt: new Date(success.dateCreated).toISOString(),
			durationSeconds: (success.dateCreated - first.dateCreated) / 1000,
			run: expect.objectContaining({ id: success.id, outcome: 'succeeded' }),
		});
		expect(await watch()).toEqual([]);

		// b2 recovers; b1 fails again: a new incident. In one poll, oldest run first.
		emu.recordRun({ bundleId: b2, outcome: 'succeeded', dateCreated: at() });
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		expect(summary(await watch())).toEqual([
			`automationRecovered ${b2} 1`,
			`automationFailing ${b1} 1`,
		]);
		expect(await watch()).toEqual([]);
		expect(JSON.stringify(staticData).length).toBeLessThan(4000);
	});

	it('a baseline saved by the version that kept open incidents is read as it is; the incident still resolves', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.UTC(2026, 0, 3, 8, 0, 0));
		const [b1] = await customerWithTwoAutomations(emu, 'c-old');
		const staticData: IDataObject = {};
		expect(await poll(context(staticData, { partner: 'c-old' }))).toEqual([]);
		const failed = emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		expect(summary(await poll(context(staticData, { partner: 'c-old' })))).toEqual([
			`automationFailing ${b1} 1`,
		]);
		// What the earlier version wrote beside the runs: the open incident.
		const stored = staticData['node:Albato Solutions Trigger'] as IDataObject;
		(stored.incidentEvents as IDataObject).incidents = {
			[String(b1)]: { runId: String(failed.id), openedAt: at(), failedRuns: 1 },
		};
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		const items = await poll(context(staticData, { partner: 'c-old' }));
		expect(summary(items)).toEqual([`automationRecovered ${b1} 1`]);
		expect(items[0].firstFailedRunId).toBe(failed.id);
	});

	it('a failure and its recovery between two polls: both, in order', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.UTC(2026, 0, 2, 8, 0, 0));
		const [b1] = await customerWithTwoAutomations(emu, 'c-brief');
		const staticData: IDataObject = {};
		expect(await poll(context(staticData, { partner: 'c-brief' }))).toEqual([]);
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		const items = await poll(context(staticData, { partner: 'c-brief' }));
		// Failing: the failed runs so far (both listed by this poll); Recovered: the incident's total.
		expect(summary(items)).toEqual([`automationFailing ${b1} 2`, `automationRecovered ${b1} 2`]);
		expect(items[1].durationSeconds).toBe(2);
	});

	it('a run in progress counts once it has ended', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.UTC(2026, 0, 3, 8, 0, 0));
		const [b1] = await customerWithTwoAutomations(emu, 'c-slow');
		const staticData: IDataObject = {};
		expect(await poll(context(staticData, { partner: 'c-slow' }))).toEqual([]);
		const running = emu.recordRun({ bundleId: b1, outcome: 'inProgress', dateCreated: at() });
		expect(await poll(context(staticData, { partner: 'c-slow' }))).toEqual([]);
		const record = emu.runs().find((run) => run.id === running.id)!;
		record.status = 2;
		record.steps.at(-1)![0].status = 2;
		record.steps.at(-1)![0].error = 'Timed out';
		expect(summary(await poll(context(staticData, { partner: 'c-slow' })))).toEqual([
			`automationFailing ${b1} 1`,
		]);
		expect(await poll(context(staticData, { partner: 'c-slow' }))).toEqual([]);
	});
});

describe('Automation Failing / Automation Recovered, Access Token credential', () => {
	// The fixture history of user-1: 7001 succeeded then failed, 7003 succeeded.
	it('the first poll reports the automations failing now, once; then each change once', async () => {
		const emu = ctx.emu;
		const staticData: IDataObject = {};
		const first = await poll(context(staticData));
		expect(summary(first)).toEqual(['automationFailing 7001 1']);
		expect(first[0]).toMatchObject({
			installationId: 5001,
			openedAt: '2024-05-01T11:00:00.000Z',
			run: expect.objectContaining({ id: FIXTURE_RUN_IDS.user1Failed }),
		});
		expect(first[0]).not.toHaveProperty('endUserId');
		expect(await poll(context(staticData))).toEqual([]);

		emu.recordRun({ bundleId: 7001, outcome: 'failed', dateCreated: '2024-05-03 10:00:00' });
		expect(await poll(context(staticData))).toEqual([]);
		emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2024-05-03 10:30:00' });
		emu.recordRun({ bundleId: 7001, outcome: 'succeeded', dateCreated: '2024-05-03 11:00:00' });
		const later = await poll(context(staticData));
		expect(summary(later)).toEqual(['automationFailing 7003 1', 'automationRecovered 7001 2']);
		expect(later[1]).toMatchObject({
			openedAt: '2024-05-01T11:00:00.000Z',
			resolvedAt: '2024-05-03T11:00:00.000Z',
			durationSeconds: 48 * 3600,
		});
		expect(await poll(context(staticData))).toEqual([]);
	});

	it('Automation Recovered alone: failures are not output, but counted', async () => {
		const emu = ctx.emu;
		const staticData: IDataObject = {};
		expect(await poll(context(staticData, { events: ['automationRecovered'] }))).toEqual([]);
		emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2024-05-04 09:00:00' });
		expect(await poll(context(staticData, { events: ['automationRecovered'] }))).toEqual([]);
		emu.recordRun({ bundleId: 7001, outcome: 'succeeded', dateCreated: '2024-05-04 10:00:00' });
		emu.recordRun({ bundleId: 7003, outcome: 'succeeded', dateCreated: '2024-05-04 11:00:00' });
		expect(summary(await poll(context(staticData, { events: ['automationRecovered'] })))).toEqual([
			'automationRecovered 7001 1',
			'automationRecovered 7003 1',
		]);
	});

	it('with Run Failed too: one read of the runs per poll, run events first, each kind its own baseline', async () => {
		const emu = ctx.emu;
		const staticData: IDataObject = {};
		const events = ['runFailed', ...BOTH];
		let from = emu.requests.length;
		expect(summary(await poll(context(staticData, { events })))).toEqual([
			'automationFailing 7001 1',
		]);
		expect(eventsRead(from)).toHaveLength(1);
		const stored = staticData['node:Albato Solutions Trigger'] as IDataObject;
		expect(Object.keys(stored).sort()).toEqual(['incidentEvents', 'runEvents']);
		const failed = emu.recordRun({
			bundleId: 7003,
			outcome: 'failed',
			dateCreated: '2024-05-04 10:00:00',
		});
		from = emu.requests.length;
		const items = await poll(context(staticData, { events }));
		expect(items.map((item) => item.event)).toEqual(['runFailed', 'automationFailing']);
		expect(items[0].runId).toBe(failed.id);
		expect(eventsRead(from)).toHaveLength(1);
		// The installation list is read once for both kinds' names.
		expect(
			emu.requests.slice(from).filter((r) => r.path === '/solution/installation'),
		).toHaveLength(1);
	});

	it('a poll that fails emits nothing and keeps the baseline', async () => {
		const emu = ctx.emu;
		const staticData: IDataObject = {};
		await poll(context(staticData));
		const before = JSON.stringify(staticData);
		emu.recordRun({ bundleId: 7001, outcome: 'succeeded', dateCreated: '2024-05-04 10:00:00' });
		emu.faults.add({ method: 'GET', path: '/bundle/events', status: 500, times: 10 });
		await expect(poll(context(staticData))).rejects.toThrow();
		expect(JSON.stringify(staticData)).toBe(before);
		emu.faults.clear();
		expect(summary(await poll(context(staticData)))).toEqual(['automationRecovered 7001 1']);
	});

	it('Solution: only the automations of that solution', async () => {
		const emu = ctx.emu;
		const staticData: IDataObject = {};
		expect(summary(await poll(context(staticData, { solutionId: '101' })))).toEqual([
			'automationFailing 7001 1',
		]);
		// Solution 102 is not user-1's: its failures are not reported, the runs become known.
		const other: IDataObject = {};
		expect(await poll(context(other, { solutionId: '102' }))).toEqual([]);
		emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2024-05-04 11:00:00' });
		expect(await poll(context(other, { solutionId: '102' }))).toEqual([]);
		expect(summary(await poll(context(staticData, { solutionId: '101' })))).toEqual([
			'automationFailing 7003 1',
		]);
	});
});

describe('Fetch Test Event', () => {
	it('gives the newest incident of a chosen event, with the fields a real event carries; the baseline untouched', async () => {
		const emu = ctx.emu;
		const staticData: IDataObject = {};
		const sample = await poll(context(staticData, { mode: 'manual' }));
		expect(staticData).toEqual({});
		expect(sample).toHaveLength(1);
		expect(sample[0]).toMatchObject({ event: 'automationFailing', bundleId: 7001 });

		await poll(context(staticData));
		emu.recordRun({ bundleId: 7001, outcome: 'succeeded', dateCreated: '2024-05-04 10:00:00' });
		emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2024-05-04 11:00:00' });
		const real = await poll(context(staticData));
		expect(summary(real)).toEqual(['automationRecovered 7001 1', 'automationFailing 7003 1']);

		const failing = await poll(context({}, { mode: 'manual', events: ['automationFailing'] }));
		const recovered = await poll(context({}, { mode: 'manual', events: ['automationRecovered'] }));
		expect(Object.keys(failing[0]).sort()).toEqual(Object.keys(real[1]).sort());
		expect(Object.keys(recovered[0]).sort()).toEqual(Object.keys(real[0]).sort());
		expect(failing[0]).toMatchObject({ event: 'automationFailing', bundleId: 7003 });
		expect(recovered[0]).toMatchObject({ event: 'automationRecovered', bundleId: 7001 });
	});

	it('in partner mode too; none yet: says so', async () => {
		const emu = ctx.emu;
		const at = runClock(Date.UTC(2026, 0, 5, 8, 0, 0));
		const [b1] = await customerWithTwoAutomations(emu, 'c-fine');
		emu.recordRun({ bundleId: b1, outcome: 'succeeded', dateCreated: at() });
		await expect(
			poll(context({}, { partner: 'c-fine', mode: 'manual', events: ['automationRecovered'] })),
		).rejects.toThrow('No automation recovered from failed runs');
		emu.recordRun({ bundleId: b1, outcome: 'failed', dateCreated: at() });
		const sample = await poll(context({}, { partner: 'c-fine', mode: 'manual' }));
		expect(sample[0]).toMatchObject({ event: 'automationFailing', endUserId: 'c-fine' });
	});
});

describe('the Events parameter', () => {
	it('offers the two automation events beside the existing ones, sorted by name; the rest unchanged', () => {
		const { properties } = new AlbatoSolutionsTrigger().description;
		const events = properties.find((property) => property.name === 'events')!;
		const options = events.options as INodePropertyOptions[];
		expect(options.map((option) => option.value).sort()).toEqual(
			[...EVENTS, ...RUN_EVENTS, ...INCIDENT_EVENTS, ...USAGE_EVENTS].sort(),
		);
		const names = options.map((option) => option.name);
		expect(names).toEqual([...names].sort());
		expect(events.default).toEqual([]);
		// Installation ID (Run Events) applies to the automation events too (same read of the runs).
		for (const property of properties.filter((p) => p.name === 'runInstallationId'))
			expect(property.displayOptions?.show?.events).toEqual([...RUN_EVENTS, ...INCIDENT_EVENTS]);
	});

	it('an unknown event names the automation events among the known ones', async () => {
		await expect(
			poll(context({}, { events: ['automationFailing', 'storm'] })),
		).rejects.toMatchObject({
			message: 'Unknown event "storm"',
			description: `Events are ${[...EVENTS, ...RUN_EVENTS, ...INCIDENT_EVENTS, ...USAGE_EVENTS].join(', ')}`,
		});
	});
});
