/**
 * Run → Get Many names what a user reaches for first: the failed step's title,
 * a statusName for every run (failed ones included), the automation's and installation's titles,
 * in both scopes.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const getMany = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'run',
	operation: 'getAll',
	installationId: byId('id', 5001),
	returnAll: true,
	...extra,
});

describe('Run → Get Many: names', () => {
	it.each([
		['every automation', {}],
		['one automation', { runsOf: 'bundle', bundleId: 7001 }],
	])('%s: failedStep.title, statusName, bundleTitle and installationTitle', async (_n, extra) => {
		const run = await runNode(ctx.emu, getMany({ ...extra, filters: { status: 'failed' } }));
		expect(run.error).toBeUndefined();
		const [failed] = run.json;
		const failedStep = failed.failedStep as IDataObject;
		expect(failedStep.triggerActionId).toBe(9002);
		expect(failedStep.title).toEqual(expect.any(String));
		expect(failedStep.title).not.toBe('');
		expect(failedStep.statusName).toBe('failed');
		expect(failed).toMatchObject({
			statusName: 'failed',
			bundleTitle: expect.any(String),
			installationTitle: 'Leads for ACME',
		});
		const steps = failed.steps as IDataObject[];
		expect(steps.map((step) => typeof step.title)).toEqual(['string', 'string']);
		expect(steps.map((step) => step.statusName)).toEqual(['succeeded', 'failed']);
	});

	it('a run still going is named inProgress', async () => {
		ctx.emu.recordRun({
			bundleId: 7002,
			outcome: 'inProgress',
			dateCreated: '2030-05-03 08:00:00',
		});
		const run = await runNode(ctx.emu, getMany({ limit: 1, returnAll: false }));
		expect(run.json[0]).toMatchObject({ outcome: 'inProgress', statusName: 'inProgress' });
	});
});
