/**
 * Installation → Upgrade of a customer that was off: the old installation paused before the
 * upgrade (the customer deliberately stopped). The upgrade mirrors it: the new one gets the values
 * and is left paused, never started, and the item says so; a rerun sends nothing; Roll Back of
 * that customer writes back and leaves the old one paused too.
 */
import type { INodeParameters } from 'n8n-workflow';

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
const status = (id: number) => ctx.emu.state.installations.get(id)?.status;
const upgrade = (extra: INodeParameters = {}) => upgradeParams(extra);

beforeEach(() => {
	ctx.emu.state.installations.get(OLD)!.status = 0;
	fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value = 'Hello ACME';
});

it('the old one paused before: the new one is installed, gets the values, and is left paused (never started); the item says so', async () => {
	const run = await runNode(ctx.emu, upgrade());
	expect(run.error).toBeUndefined();
	expect(writes(run.calls)).toEqual([
		'POST /solution/105/installation',
		`PUT /bundle/data/${stepOf(ctx.emu, NEW, 1051, 1)}`,
	]);
	expect([status(OLD), status(NEW)]).toEqual([0, 0]);
	expect(fieldOf(ctx.emu, NEW, 1051, 1, 'mailSubject').value).toBe('Hello ACME');
	expect(run.json[0]).toMatchObject({
		state: 'upgraded',
		leftPaused: true,
		oldInstallation: { id: OLD, status: 0 },
		newInstallation: { id: NEW, status: 0, created: true },
		written: 1,
	});
	expect(run.json[0].notice).toMatch(
		new RegExp(
			`Installation ${OLD} was paused before the upgrade, so installation ${NEW} is left paused too`,
		),
	);
	expect(neverBothActive(ctx.emu, [])).toBe(true);
	expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([]);

	// Resume: the customer is already on the new one (paused, as it was): nothing is written.
	const again = await runNode(ctx.emu, upgrade());
	expect(writes(again.calls)).toEqual([]);
	expect(again.json[0]).toMatchObject({
		state: 'alreadyUpgraded',
		unchanged: true,
		leftPaused: true,
	});
	expect([status(OLD), status(NEW)]).toEqual([0, 0]);
});

it('an active customer is still started on the new one (leftPaused false)', async () => {
	ctx.emu.state.installations.get(OLD)!.status = 1;
	const run = await runNode(ctx.emu, upgrade());
	expect([status(OLD), status(NEW)]).toEqual([0, 1]);
	expect(run.json[0]).toMatchObject({ state: 'upgraded', leftPaused: false });
	expect(run.json[0].notice).not.toMatch(/left paused/);
});

it('Preview of a paused customer says the new one would be left paused, and sends no write', async () => {
	const run = await runNode(ctx.emu, upgrade({ requestOptions: { preview: true } }));
	expect(writes(run.calls)).toEqual([]);
	expect(run.json[0]).toMatchObject({
		preview: true,
		leftPaused: true,
		newInstallation: { id: null, status: 0 },
	});
	expect(run.json[0].notice).toMatch(/left paused too/);
});

it('Roll Back of a customer upgraded while off: the values go back, the old one stays paused; twice writes nothing', async () => {
	await runNode(ctx.emu, upgrade());
	fieldOf(ctx.emu, NEW, 1051, 1, 'mailSubject').value = 'Changed while off';
	const back = await runNode(ctx.emu, upgrade({ direction: 'rollBack' }));
	expect(back.error).toBeUndefined();
	expect(writes(back.calls)).toEqual([`PUT /bundle/data/${stepOf(ctx.emu, OLD, 1011, 1)}`]);
	expect(fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value).toBe('Changed while off');
	expect([status(OLD), status(NEW)]).toEqual([0, 0]);
	expect(back.json[0]).toMatchObject({
		state: 'rolledBack',
		leftPaused: true,
		oldInstallation: { id: OLD, status: 0 },
	});
	const twice = await runNode(ctx.emu, upgrade({ direction: 'rollBack' }));
	expect(writes(twice.calls)).toEqual([]);
	expect(twice.json[0]).toMatchObject({ state: 'alreadyRolledBack', unchanged: true });
});
