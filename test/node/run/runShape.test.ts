/**
 * One shape for a run, wherever it comes from: Run → Get Many, Run → Get New (runs, and incidents'
 * failedStep) and the trigger's Run Failed and Automation Failing. The same failed run, read by
 * each, carries the same keys, its steps the same keys, and the failed step its title, in partner
 * mode with the customer named (endUserId).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { pollContext } from '../../../harness';
import { AlbatoSolutionsTrigger } from '../../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { partnerCredential, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { customerWithTwoAutomations, watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();
const CUSTOMER = 'shape-co';

/** Every key of a run item, and of each of its steps. */
const RUN_KEYS = [
	'endUserId',
	'installationId',
	'installationTitle',
	'bundleTitle',
	'id',
	'bundleId',
	'status',
	'statusName',
	'outcome',
	'eventCode',
	'dateCreated',
	'dateCreatedAsSent',
	'failedStep',
	'steps',
];
const STEP_KEYS = ['id', 'title', 'triggerActionId', 'statusName', 'dateCreated', 'stepLevel'];

function trigger(events: string[], staticData: IDataObject): IPollFunctions {
	return pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: { events, authentication: 'partnerApi', endUserId: CUSTOMER },
		credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		staticData,
		mode: 'trigger',
	});
}

const poll = async (context: IPollFunctions) =>
	((await new AlbatoSolutionsTrigger().poll.call(context)) ?? [[]])[0].map((item) => item.json);

/** What a run item says about its shape: its keys, its steps' keys and titles, its failed step. */
function shapeOf(run: IDataObject) {
	const steps = run.steps as IDataObject[];
	const failed = run.failedStep as IDataObject;
	return {
		keys: RUN_KEYS.filter((key) => key in run),
		stepKeys: steps.map((step) => STEP_KEYS.filter((key) => key in step)),
		stepTitles: steps.map((step) => step.title),
		failedStep: { title: failed.title, triggerActionId: failed.triggerActionId },
		names: [run.endUserId, run.installationTitle, run.bundleTitle],
	};
}

it('Get Many, Get New (runs and incidents) and the trigger give the same run, step titles included', async () => {
	const [bundleId] = await customerWithTwoAutomations(ctx.emu, CUSTOMER);
	const installation = [...ctx.emu.state.installations.values()].find(
		(i) => i.title === `Leads of ${CUSTOMER}`,
	)!;
	const runFailed = trigger(['runFailed'], {});
	const automationFailing = trigger(['automationFailing'], {});
	expect(await poll(runFailed)).toEqual([]); // the baselines
	expect(await poll(automationFailing)).toEqual([]);
	ctx.emu.recordRun({ bundleId, outcome: 'succeeded', dateCreated: '2030-01-01 08:00:00' });
	const { id } = ctx.emu.recordRun({
		bundleId,
		outcome: 'failed',
		dateCreated: '2030-01-01 09:00:00',
	});

	const getMany = await runPartner(
		ctx.emu,
		{
			resource: 'run',
			operation: 'getAll',
			installationId: { __rl: true, mode: 'id', value: String(installation.id) },
			returnAll: true,
			filters: { status: 'failed' },
		},
		{ inputItems: [{ customer: CUSTOMER }] },
	);
	expect(getMany.error).toBeUndefined();
	const getNew = await watcher(ctx.emu, {
		partner: true,
		parameters: { filters: { status: 'failed' } },
	}).sweep([{ customer: CUSTOMER }], { mode: 'manual' });
	const incidents = await watcher(ctx.emu, {
		partner: true,
		parameters: { groupIntoIncidents: true },
	}).sweep([{ customer: CUSTOMER }], { mode: 'manual' });
	const [opened] = incidents.json;
	const [runEvent] = await poll(runFailed);
	const [automationEvent] = await poll(automationFailing);

	const sameRun = (items: IDataObject[]) => items.find((item) => String(item.id) === String(id))!;
	const expected = shapeOf(sameRun(getMany.json));
	expect(expected.keys).toEqual(RUN_KEYS);
	expect(expected.failedStep.title).toEqual(expect.stringMatching(/\S/));
	expect(expected.stepTitles.every((title) => typeof title === 'string' && title !== '')).toBe(
		true,
	);
	expect(expected.names).toEqual([CUSTOMER, `Leads of ${CUSTOMER}`, expect.any(String)]);
	expect(shapeOf(sameRun(getNew.json))).toEqual(expected);
	expect(shapeOf(runEvent)).toEqual(expected);
	expect(runEvent).toMatchObject({ event: 'runFailed', runId: id });
	// An incident names its automation and carries the failing run's failedStep, titled.
	expect(opened).toMatchObject({ event: 'incidentOpened', endUserId: CUSTOMER });
	expect(opened.failedStep).toEqual(sameRun(getMany.json).failedStep);
	expect(automationEvent).toMatchObject({ event: 'automationFailing', endUserId: CUSTOMER });
	expect(automationEvent.failedStep).toEqual(sameRun(getMany.json).failedStep);
});
