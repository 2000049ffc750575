/**
 * Run → Get Many through n8n-core against the emulator: one installation (its automations read with
 * expand, then the runs of each) or one automation; status and Since filters (inclusive), Limit,
 * steps flattened with their level, dates as ISO (UTC, or the account's offset), in every variant,
 * over pages, and bad input refused before any request.
 */
import type { INodeParameters } from 'n8n-workflow';

import { FIXTURE_RUN_IDS } from '../../../emulator/handlers/runs';
import { byId, runNode, useEmulator } from '../../support/setup';
import { RUN_VARIANTS } from './variants';

const ctx = useEmulator();

const getMany = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'run',
	operation: 'getAll',
	installationId: byId('id', 5001),
	returnAll: true,
	...extra,
});
const EVENTS = (_bundle: number) => `GET /bundle/events`;

describe('Run → Get Many', () => {
	it('one installation: its automations, then the runs of each; newest first, steps flat with their level', async () => {
		const run = await runNode(ctx.emu, getMany());
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual(['GET /solution/installation/5001', EVENTS(7001), EVENTS(7002)]);
		const queries = ctx.emu.requests.slice(-2).map((r) => r.query);
		expect(queries).toEqual([
			{ expand: 'steps', bundleId: '7001' },
			{ expand: 'steps', bundleId: '7002' },
		]);
		expect(run.json.map((r) => [r.id, r.outcome])).toEqual([
			[FIXTURE_RUN_IDS.user1Failed, 'failed'],
			[FIXTURE_RUN_IDS.user1Succeeded, 'succeeded'],
		]);
		const failed = run.json[0];
		expect(failed).toMatchObject({
			bundleId: 7001,
			installationId: 5001,
			status: 2,
			statusName: 'failed',
			eventCode: 6,
			dateCreated: '2024-05-01T11:00:00.000Z',
			dateCreatedAsSent: '2024-05-01 11:00:00',
			failedStep: { triggerActionId: 9002, stepLevel: 2, error: 'Emulated step error' },
		});
		expect((failed.steps as Array<{ stepLevel: number }>).map((s) => s.stepLevel)).toEqual([1, 2]);
		expect(run.json[1]).toMatchObject({ status: 1, statusName: 'succeeded', failedStep: null });
		expect(JSON.stringify(run.json)).not.toContain('_v78_'); // the steps' run tokens are left out
	});

	it('one automation: the installation (for the names), then one list call, with the documented bundleId', async () => {
		const run = await runNode(
			ctx.emu,
			getMany({ runsOf: 'bundle', bundleId: 7003, installationId: byId('id', 5002) }),
		);
		expect(run.calls).toEqual(['GET /solution/installation/5002', 'GET /bundle/events']);
		expect(ctx.emu.requests.at(-1)!.query).toEqual({ expand: 'steps', bundleId: '7003' });
		expect(run.json.map((r) => r.id)).toEqual([FIXTURE_RUN_IDS.user1Bundle7003]);
	});

	it('status filter: failed only, succeeded only; in-progress runs are neither', async () => {
		ctx.emu.recordRun({
			bundleId: 7002,
			outcome: 'inProgress',
			dateCreated: '2024-05-03 08:00:00',
		});
		const failed = await runNode(ctx.emu, getMany({ filters: { status: 'failed' } }));
		expect(failed.json.map((r) => r.id)).toEqual([FIXTURE_RUN_IDS.user1Failed]);
		const succeeded = await runNode(ctx.emu, getMany({ filters: { status: 'succeeded' } }));
		expect(succeeded.json.map((r) => r.id)).toEqual([FIXTURE_RUN_IDS.user1Succeeded]);
		const any = await runNode(ctx.emu, getMany());
		expect(any.json.map((r) => r.outcome)).toEqual(['inProgress', 'failed', 'succeeded']);
	});

	it.each([
		['exactly at a run (inclusive)', '2024-05-01T11:00:00Z', [FIXTURE_RUN_IDS.user1Failed]],
		['one second after it', '2024-05-01T11:00:01Z', []],
		['one second before it', '2024-05-01T10:59:59Z', [FIXTURE_RUN_IDS.user1Failed]],
		[
			'at the older run',
			'2024-05-01T10:00:00Z',
			[FIXTURE_RUN_IDS.user1Failed, FIXTURE_RUN_IDS.user1Succeeded],
		],
		['with an offset, at the run', '2024-05-01T14:00:00+03:00', [FIXTURE_RUN_IDS.user1Failed]],
	])('Since %s', async (_name, since, ids) => {
		const run = await runNode(ctx.emu, getMany({ filters: { since } }));
		expect(run.error).toBeUndefined();
		expect(run.json.map((r) => r.id)).toEqual(ids);
	});

	it("Since without a zone is in the workflow's time zone (n8n's default: America/New_York)", async () => {
		const at = await runNode(ctx.emu, getMany({ filters: { since: '2024-05-01T07:00:00' } }));
		expect(at.json.map((r) => r.id)).toEqual([FIXTURE_RUN_IDS.user1Failed]);
		const after = await runNode(ctx.emu, getMany({ filters: { since: '2024-05-01T07:00:01' } }));
		expect(after.json).toEqual([]);
	});

	it('Limit keeps the newest', async () => {
		const run = await runNode(ctx.emu, getMany({ returnAll: false, limit: 1 }));
		expect(run.json.map((r) => r.id)).toEqual([FIXTURE_RUN_IDS.user1Failed]);
	});

	it('history over many pages: every page read, none lost or repeated', async () => {
		ctx.emu.setVariants({ pagination: 'headers' });
		for (let i = 0; i < 6; i++)
			ctx.emu.recordRun({
				bundleId: 7001,
				outcome: i % 2 ? 'failed' : 'succeeded',
				dateCreated: `2024-06-0${i + 1} 10:00:00`,
			});
		const run = await runNode(
			ctx.emu,
			getMany({ filters: { since: '2024-06-01T00:00:00Z', status: 'failed' } }),
		);
		expect(run.error).toBeUndefined();
		expect(run.json.map((r) => r.dateCreated)).toEqual([
			'2024-06-06T10:00:00.000Z',
			'2024-06-04T10:00:00.000Z',
			'2024-06-02T10:00:00.000Z',
		]);
		// 8 runs of 7001, one per page; 7002 has none (one page)
		expect(run.calls.filter((c) => c === 'GET /bundle/events')).toHaveLength(9);
	});

	it('an unreadable page fails the read (no history cut short)', async () => {
		ctx.emu.setVariants({ pagination: 'headers' });
		ctx.emu.faults.add({
			method: 'GET',
			path: '/bundle/events',
			query: /(^|&)page=2(&|$)/,
			malformedJson: true,
			times: 10,
		});
		const run = await runNode(ctx.emu, getMany());
		expect(run.error?.message).toMatch(/not valid JSON/);
		expect(run.json).toEqual([]);
	});

	it.each(RUN_VARIANTS)('the same runs and dates in variant: %s', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runNode(ctx.emu, getMany());
		expect(run.error).toBeUndefined();
		expect(run.json.map((r) => [r.id, r.bundleId, r.outcome, r.dateCreated])).toEqual([
			[FIXTURE_RUN_IDS.user1Failed, 7001, 'failed', '2024-05-01T11:00:00.000Z'],
			[FIXTURE_RUN_IDS.user1Succeeded, 7001, 'succeeded', '2024-05-01T10:00:00.000Z'],
		]);
		expect(run.json[0].failedStep).toMatchObject({ stepLevel: 2, triggerActionId: 9002 });
	});

	it.each([
		[
			'Installation',
			{ installationId: byId('id', '0') },
			/Installation must be a positive whole number/,
		],
		[
			'Automation',
			{ runsOf: 'bundle', bundleId: 'x' },
			/Automation \(Bundle\) must be a positive whole number/,
		],
		['Limit', { returnAll: false, limit: 0 }, /Limit must be a whole number/],
		['Since', { filters: { since: 'yesterday-ish' } }, /Filters → Since must be a date/],
		['Status', { filters: { status: 'broken' } }, /Filters → Status must be/],
		['offset', { options: { dateOffsetMinutes: 5000 } }, /Service Time Zone/],
	])('bad %s: refused before any request', async (_name, extra, message) => {
		const run = await runNode(ctx.emu, getMany(extra as INodeParameters));
		expect(run.error?.message).toMatch(message);
		expect(run.calls).toEqual([]);
	});
});
