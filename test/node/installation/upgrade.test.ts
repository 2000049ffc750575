/**
 * Installation → Upgrade through n8n-core against the emulator: customer "Leads for ACME" (5001,
 * solution 101, active) moved to solution 105, the next version (emulator/upgradeFixtures.ts: a
 * renamed step, a renamed field, a new field with a default, a removed field), then rolled back.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { runNode, useEmulator } from '../../support/setup';
import {
	activeCopies,
	fieldOf,
	neverBothActive,
	stepOf,
	upgradeParams,
	writes,
} from './upgradeSupport';

const ctx = useEmulator();
const OLD = 5001;
const NEW = 6001; // the emulator's next installation ID

const upgrade = (extra: INodeParameters = {}) => upgradeParams(extra);
const rollBack = (extra: INodeParameters = {}) =>
	upgradeParams({ direction: 'rollBack', ...extra });
const status = (id: number) => ctx.emu.state.installations.get(id)?.status;

describe('Installation → Upgrade', () => {
	it('installs 105 with the same connections, carries the values by step and code, pauses the old, starts the new', async () => {
		fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value = 'Hello ACME';
		fieldOf(ctx.emu, OLD, 1011, 0, 'onlyNew').value = false;
		const run = await runNode(ctx.emu, upgrade());
		expect(run.error).toBeUndefined();
		expect(writes(run.calls)).toEqual([
			'POST /solution/105/installation',
			`PUT /bundle/data/${stepOf(ctx.emu, NEW, 1051, 1)}`,
			`PAUSE /solution/installation/${OLD}`,
			`PLAY /solution/installation/${NEW}`,
		]);
		const post = ctx.emu.requests.find((r) => r.method === 'POST')!;
		expect(post.body).toMatchObject({
			credentialData: VALID_CREDENTIAL_DATA[101],
			templateIds: [1051, 1052],
			title: 'Leads for ACME',
		});
		expect([status(OLD), status(NEW)]).toEqual([0, 1]);
		expect(fieldOf(ctx.emu, NEW, 1051, 1, 'mailSubject').value).toBe('Hello ACME');
		expect(fieldOf(ctx.emu, NEW, 1051, 1, 'replyTo').value).toBe('support@example.com');
		expect(run.json[0]).toMatchObject({
			direction: 'upgrade',
			state: 'upgraded',
			unchanged: false,
			oldInstallation: { id: OLD, status: 0, solutionId: 101 },
			newInstallation: { id: NEW, status: 1, solutionId: 105, created: true },
			written: 1,
			unmapped: [
				{
					automation: 'New lead → welcome email',
					step: 'New lead in CRM',
					code: 'onlyNew',
					value: false,
					reason: 'step "New lead in CRM" has no field "onlyNew"',
				},
			],
			kept: [{ step: 'Send welcome message', code: 'replyTo', value: 'support@example.com' }],
		});
		expect(run.json[0].notice).toMatch(/1 value has no home in the new installation/);
		const mapped = run.json[0].mapped as IDataObject[];
		expect(mapped).toContainEqual({
			automation: 'New lead → welcome email',
			step: 'Send welcome email',
			code: 'subject',
			to: {
				automation: 'New lead → welcome email',
				step: 'Send welcome message',
				code: 'mailSubject',
			},
			value: 'Hello ACME',
			differs: true,
		});
		expect(mapped).toHaveLength(10); // the 11 values of 5001 but one
		expect(neverBothActive(ctx.emu, [OLD])).toBe(true);
	});

	it('resume: a customer already upgraded is reported so and nothing is sent but reads', async () => {
		await runNode(ctx.emu, upgrade());
		const again = await runNode(ctx.emu, upgrade());
		expect(writes(again.calls)).toEqual([]);
		expect(again.calls).toEqual(['GET /solution/installation']);
		expect(again.json[0]).toMatchObject({
			state: 'alreadyUpgraded',
			unchanged: true,
			oldInstallation: { id: OLD, status: 0 },
			newInstallation: { id: NEW, status: 1 },
		});
	});

	it('Preview sends no write, says what would be installed, and with the new one there, what maps', async () => {
		const preview = await runNode(ctx.emu, upgrade({ requestOptions: { preview: true } }));
		expect(preview.error).toBeUndefined();
		expect(writes(preview.calls)).toEqual([]);
		expect(preview.json[0]).toMatchObject({
			preview: true,
			state: 'upgraded',
			newInstallation: { id: null, created: true },
		});
		expect(preview.json[0].notice).toMatch(/does not exist yet/);
		// Interrupted after the install: the new one is there, paused, with its defaults.
		fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value = 'Hello ACME';
		ctx.emu.faults.add({ method: 'PUT', path: /^\/bundle\/data\/\d+$/, status: 422 });
		expect((await runNode(ctx.emu, upgrade())).error).toBeDefined();
		const second = await runNode(ctx.emu, upgrade({ requestOptions: { preview: true } }));
		expect(writes(second.calls)).toEqual([]);
		expect(second.json[0]).toMatchObject({
			newInstallation: { id: NEW, created: false },
			written: 1,
			unmapped: [{ code: 'onlyNew' }],
		});
		expect([status(OLD), status(NEW)]).toEqual([1, 0]);
	});

	it('Renamed Fields that are not text are refused before any request, naming the parameter and item', async () => {
		const run = await runNode(ctx.emu, upgrade({ fieldRenames: '{"subject": 5}' }));
		expect(run.error?.message).toBe(
			'Renamed Fields (JSON) (item 0): "subject" must map to a field code (text)',
		);
		expect(run.calls).toEqual([]);
	});

	it('without Renamed Fields the subject has no home: reported, and the new one keeps its default', async () => {
		fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value = 'Hello ACME';
		const run = await runNode(ctx.emu, upgrade({ fieldRenames: '{}' }));
		expect((run.json[0].unmapped as IDataObject[]).map((field) => field.code)).toEqual([
			'onlyNew',
			'subject',
		]);
		expect(fieldOf(ctx.emu, NEW, 1051, 1, 'mailSubject').value).toBe('Welcome aboard');
	});
});

describe('Installation → Upgrade, Roll Back', () => {
	it('starts the old one, pauses the new one, writes the new values back; twice writes nothing', async () => {
		await runNode(ctx.emu, upgrade());
		fieldOf(ctx.emu, NEW, 1051, 1, 'mailSubject').value = 'Changed after the upgrade';
		const back = await runNode(ctx.emu, rollBack());
		expect(back.error).toBeUndefined();
		expect(writes(back.calls)).toEqual([
			`PUT /bundle/data/${stepOf(ctx.emu, OLD, 1011, 1)}`,
			`PAUSE /solution/installation/${NEW}`,
			`PLAY /solution/installation/${OLD}`,
		]);
		expect(fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value).toBe('Changed after the upgrade');
		expect([status(OLD), status(NEW)]).toEqual([1, 0]);
		expect(back.json[0]).toMatchObject({
			direction: 'rollBack',
			state: 'rolledBack',
			oldInstallation: { id: OLD, status: 1 },
			newInstallation: { id: NEW, status: 0 },
			written: 1,
			// The new field has no home in the old version: said, not dropped.
			unmapped: [{ step: 'Send welcome message', code: 'replyTo' }],
		});
		const twice = await runNode(ctx.emu, rollBack());
		expect(writes(twice.calls)).toEqual([]);
		expect(twice.json[0]).toMatchObject({ state: 'alreadyRolledBack', unchanged: true });
		expect(neverBothActive(ctx.emu, [OLD])).toBe(true);
		expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([OLD]);
	});

	it('with no old installation, fails naming it, and sends nothing', async () => {
		const run = await runNode(ctx.emu, rollBack({ title: 'Nobody' }));
		expect(run.error?.message).toBe(
			'The end user has no installation "Nobody" of solution 101 to roll back to',
		);
		expect(writes(run.calls)).toEqual([]);
	});
});

describe('Installation → Upgrade, connection settings', () => {
	const PIPEDRIVE = { crm: 'pipedrive', pipedriveFilter: 'mine', mailer: 'sendpulse' };

	it('none shown by the service and none given: fails before the install, the old one untouched', async () => {
		const run = await runNode(ctx.emu, upgrade({ credentialData: '{}' }), {
			continueOnFail: true,
		});
		expect(String(run.json[0].error)).toMatch(/^Connection Settings are incomplete or wrong/);
		expect(run.json[0]).toMatchObject({ details: { failedAt: 'install', oldStatus: 'active' } });
		expect(writes(run.calls)).toEqual([]);
	});

	it("a service that shows the old installation's connection settings: those are installed, not the item's", async () => {
		// The emulator echoes none (its choice 5): here its detail shows them, as a service may.
		const views = jest.requireActual<typeof import('../../../emulator/handlers/views')>(
			'../../../emulator/handlers/views',
		);
		const render = views.renderInstallation;
		const shown = jest
			.spyOn(views, 'renderInstallation')
			.mockImplementation((context, record, expand, withStatus) => ({
				...render(context, record, expand, withStatus),
				credentialData: { ...record.credentialData },
			}));
		try {
			ctx.emu.state.installations.get(OLD)!.credentialData = PIPEDRIVE;
			const run = await runNode(ctx.emu, upgrade());
			expect(run.error).toBeUndefined();
			const post = ctx.emu.requests.find((r) => r.method === 'POST')!;
			expect(post.body).toMatchObject({ credentialData: PIPEDRIVE });
			expect(ctx.emu.state.installations.get(NEW)?.credentialData).toEqual(PIPEDRIVE);
		} finally {
			shown.mockRestore();
		}
	});
});

it('Roll Back of a customer never upgraded (no new installation) sends nothing, even when the old one is paused', async () => {
	ctx.emu.state.installations.get(OLD)!.status = 0;
	const run = await runNode(ctx.emu, rollBack());
	expect(writes(run.calls)).toEqual([]);
	expect(run.json[0]).toMatchObject({
		state: 'alreadyRolledBack',
		oldInstallation: { id: OLD, status: 0 },
		newInstallation: { id: null },
	});
	expect(run.json[0].notice).toMatch(/never upgraded, nothing to roll back/);
	expect(status(OLD)).toBe(0);
});
