/**
 * Installation → Upgrade when a step fails: install, values, pause old, start new (refused, or its
 * answer lost after it applied), and Roll Back's own steps. In every case the customer is left with
 * exactly one active copy (never both, never neither, at any moment of the request log), the item
 * fails saying which state each installation is in, and running it again finishes the upgrade.
 */
import type { FaultRule } from '../../../emulator/types';
import { runNode, useEmulator } from '../../support/setup';
import { activeCopies, fieldOf, neverBothActive, upgradeParams, writes } from './upgradeSupport';

const ctx = useEmulator();
const OLD = 5001;
const NEW = 6001;
const installation = (id: number) => new RegExp(`^/solution/installation/${id}$`);

interface Case {
	step: string;
	fault: FaultRule;
	/** The state the item reports, and the emulator holds. */
	left: { oldStatus: string; newStatus: string };
}

/** The sentence the item's error ends with, for the state it was left in. */
const sentenceOf = ({ oldStatus, newStatus }: Case['left']) =>
	`Left as it was: installation ${OLD} (101, old) ${oldStatus}, ` +
	(newStatus === 'not installed'
		? 'nothing installed of solution 105.'
		: `installation ${NEW} (105, new) ${newStatus}.`);
const OLD_RUNS = { oldStatus: 'active', newStatus: 'paused' };

const at = (step: string, fault: FaultRule, left = OLD_RUNS): Case => ({ step, fault, left });
const CASES: Case[] = [
	at(
		'install',
		{ method: 'POST', path: '/solution/105/installation', status: 422 },
		{ oldStatus: 'active', newStatus: 'not installed' },
	),
	at('values', { method: 'PUT', path: /^\/bundle\/data\/\d+$/, status: 422 }),
	at('pauseOld', { method: 'PAUSE', path: installation(OLD), status: 500 }),
	// The PAUSE applied, its answer lost: the old one is started again.
	at('pauseOld', { method: 'PAUSE', path: installation(OLD), reset: 'after' }),
	at('startNew', { method: 'PLAY', path: installation(NEW), status: 422 }),
	// The PLAY applied, its answer lost: the new one is paused again before the old one starts.
	at('startNew', { method: 'PLAY', path: installation(NEW), reset: 'after' }),
];

describe('Installation → Upgrade, a step fails', () => {
	it.each(CASES.map((c) => [c.step, c.fault.reset ?? c.fault.status, c] as const))(
		'%s (%s): one copy active, the item says which, and a rerun finishes',
		async (step, _how, { fault, left }) => {
			fieldOf(ctx.emu, OLD, 1011, 1, 'subject').value = 'Hello ACME';
			ctx.emu.faults.add(fault);
			const failed = await runNode(ctx.emu, upgradeParams(), { continueOnFail: true });
			expect(failed.json[0]).toMatchObject({
				details: {
					failedAt: step,
					direction: 'upgrade',
					oldInstallationId: OLD,
					newInstallationId: left.newStatus === 'not installed' ? null : NEW,
					...left,
				},
			});
			expect(String(failed.json[0].message)).toContain(sentenceOf(left));
			expect(String(failed.json[0].message)).toMatch(/Running the upgrade again continues/);
			expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([OLD]);
			expect(neverBothActive(ctx.emu, [OLD])).toBe(true);

			const again = await runNode(ctx.emu, upgradeParams());
			expect(again.error).toBeUndefined();
			expect(again.json[0]).toMatchObject({ state: 'upgraded', newInstallation: { id: NEW } });
			expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([NEW]);
			expect(fieldOf(ctx.emu, NEW, 1051, 1, 'mailSubject').value).toBe('Hello ACME');
			expect(neverBothActive(ctx.emu, [OLD])).toBe(true);
			expect(ctx.emu.state.installations.size).toBe(4); // 3 fixtures, one new: never two
		},
	);

	it('when the old one cannot be started again either, the item says both are paused', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: installation(NEW), status: 422 });
		ctx.emu.faults.add({ method: 'PLAY', path: installation(OLD), status: 422 });
		const failed = await runNode(ctx.emu, upgradeParams(), { continueOnFail: true });
		expect(failed.json[0]).toMatchObject({
			details: { failedAt: 'startNew', oldStatus: 'paused', newStatus: 'paused' },
		});
		expect(String(failed.json[0].message)).toMatch(/5001 \(101, old\) paused/);
		expect(String(failed.json[0].message)).toMatch(
			/Neither is active now: start installation 5001 with Installation → Start/,
		);
		expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([]);
		// A rerun mirrors the old one's state (paused, as for a customer who was off): both stay
		// paused, and the item says so.
		const again = await runNode(ctx.emu, upgradeParams());
		expect(again.json[0]).toMatchObject({ state: 'alreadyUpgraded', leftPaused: true });
		expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([]);
	});
});

describe('Installation → Upgrade, Roll Back, a step fails', () => {
	it.each([
		['pauseNew', { method: 'PAUSE', path: installation(NEW), status: 500 }],
		['startOld', { method: 'PLAY', path: installation(OLD), status: 422 }],
	] as const)('%s: the new one stays (or is started again) active', async (step, fault) => {
		await runNode(ctx.emu, upgradeParams());
		ctx.emu.faults.add({ ...fault });
		const failed = await runNode(ctx.emu, upgradeParams({ direction: 'rollBack' }), {
			continueOnFail: true,
		});
		expect(failed.json[0]).toMatchObject({
			details: { failedAt: step, direction: 'rollBack', oldStatus: 'paused', newStatus: 'active' },
		});
		expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([NEW]);
		const again = await runNode(ctx.emu, upgradeParams({ direction: 'rollBack' }));
		expect(again.json[0]).toMatchObject({ state: 'rolledBack' });
		expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([OLD]);
		expect(neverBothActive(ctx.emu, [OLD])).toBe(true);
		expect(writes(again.calls)).toEqual([
			`PAUSE /solution/installation/${NEW}`,
			`PLAY /solution/installation/${OLD}`,
		]);
	});
});

it('a start whose answer is lost and a target that then cannot be paused: the old one stays paused (never two active), and the item says so', async () => {
	ctx.emu.faults.add({ method: 'PLAY', path: installation(NEW), reset: 'after' });
	ctx.emu.faults.add({ method: 'PAUSE', path: installation(NEW), status: 503 });
	const failed = await runNode(ctx.emu, upgradeParams(), { continueOnFail: true });
	expect(failed.json[0]).toMatchObject({
		details: { failedAt: 'startNew', oldStatus: 'paused', newStatus: 'active' },
	});
	expect(activeCopies(ctx.emu, 'Leads for ACME')).toEqual([NEW]);
	expect(neverBothActive(ctx.emu, [OLD])).toBe(true);
	expect(failed.calls).not.toContain(`PLAY /solution/installation/${OLD}`);
});
