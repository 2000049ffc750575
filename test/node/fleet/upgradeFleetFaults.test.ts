/**
 * The fleet upgrade with per-customer faults (emulator/customerFaults.ts, set through the control
 * surface): 200 customers, 1% of them failing at each step (install, values, pause old, start new),
 * Canary Items 20, Stop After Failures 2%, one item in flight. It stops where the guard says, no
 * customer is left with two active copies or none, each failure names its step, and a resume with
 * the faults off finishes the rest: every customer on the new solution with its own values.
 */
import type { IDataObject } from 'n8n-workflow';

import { activeCopiesOf } from '../../../emulator/activeCopies';
import { isChosen } from '../../../emulator/customerFaults';
import { runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { upgradeParams } from '../../support/upgrades';
import { useShortWaits } from '../../support/waits';
import { fieldOf } from '../installation/upgradeSupport';

const ctx = usePartnerEmulator();
useShortWaits(50); // the Lost Answer Check's re-reads after each install: 10 ms, not 0.5 s
const COUNT = 200;
const SHARE = 0.01;
const CANARIES = 20;
const STEPS = ['install', 'values', 'pauseOld', 'startNew'] as const;
type Step = (typeof STEPS)[number];
const ids = Array.from({ length: COUNT }, (_, n) => `uf-${String(n).padStart(5, '0')}`);

/** The step a customer fails at with these seeds (the first chosen), or undefined. */
const failsAt = (seeds: Record<Step, string>, id: string) =>
	STEPS.find((step) => isChosen({ share: SHARE, seed: seeds[step] }, id));

/**
 * What the guard does with one item in flight: the canaries run first; after them, once the
 * failures exceed 2% of the items finished, no further item starts.
 */
function plan(seeds: Record<Step, string>): string[] {
	let failed = 0;
	let stopped = false;
	return ids.map((id, i) => {
		if (stopped) return 'Not attempted';
		const step = failsAt(seeds, id);
		if (step) failed++;
		stopped = i >= CANARIES - 1 && failed > 0.02 * (i + 1);
		return step ?? 'upgraded';
	});
}

/**
 * The first seeds whose canaries all pass, with two failures (at different steps) before the stop:
 * one within the 2% that the run goes on after, and the one that stops it (found, not hand-picked).
 */
function seedsWithAStop(): Record<Step, string> {
	for (let k = 0; ; k++) {
		const seeds = Object.fromEntries(STEPS.map((step) => [step, `${step}-${k}`])) as Record<
			Step,
			string
		>;
		const expected = plan(seeds);
		const failures = expected.filter((o) => STEPS.includes(o as Step));
		if (
			expected.slice(0, CANARIES).every((o) => o === 'upgraded') &&
			expected.includes('Not attempted') &&
			new Set(failures).size >= 2
		)
			return seeds;
	}
}

async function control(method: string, path: string, body?: unknown) {
	const response = await fetch(`${ctx.emu.baseUrl}/__emulator${path}`, {
		method,
		headers: { 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	if (!response.ok)
		throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
	return (await response.json()) as IDataObject;
}

/** One rule per step: 422 for the chosen customers' call of that step, every time. */
function faultRules(seeds: Record<Step, string>) {
	const rule = (step: Step, method: string, path: string, solutionId?: number) => ({
		method,
		path,
		regex: true,
		status: 422,
		times: 1e9,
		customers: { share: SHARE, seed: seeds[step], ...(solutionId ? { solutionId } : {}) },
	});
	return [
		rule('install', 'POST', '^/solution/105/installation$'),
		rule('values', 'PUT', '^/bundle/data/\\d+$', 105),
		rule('pauseOld', 'PAUSE', '^/solution/installation/\\d+$', 101),
		rule('startNew', 'PLAY', '^/solution/installation/\\d+$', 105),
	];
}

/** Each customer's copies of its installation: solution → status. */
function copiesOf(id: string): Record<number, number> {
	const userId = `${ctx.emu.partner.name}:${id}`;
	return Object.fromEntries(
		[...ctx.emu.state.installations.values()]
			.filter((i) => i.userId === userId && i.title === `Leads of ${id}`)
			.map((i) => [i.solutionId, i.status]),
	);
}

const params = upgradeParams({
	title: '=Leads of {{ $json.customer }}',
	requestOptions: { canaryItems: CANARIES, stopAfterFailures: '2%', concurrency: 1, maxRetries: 0 },
});
const outcomeOf = (json: IDataObject) =>
	json.state
		? String(json.state)
		: String((json.details as IDataObject | undefined)?.failedAt ?? json.error).slice(0, 13);

it('1% of customers fail at each step: the guard stops, nobody is left broken, a resume finishes', async () => {
	const seeded = (await control('POST', '/fleet', { count: COUNT, idPrefix: 'uf-' })).customers as {
		id: string;
		installationId: number;
	}[];
	expect(seeded.map((c) => c.id)).toEqual(ids);
	for (const { id, installationId } of seeded)
		fieldOf(ctx.emu, installationId, 1011, 1, 'subject').value = `Hello ${id}`;
	const seeds = seedsWithAStop();
	for (const rule of faultRules(seeds)) await control('POST', '/faults', rule);
	const inputItems = ids.map((customer) => ({ customer }));

	const first = await runPartner(ctx.emu, params, { inputItems, continueOnFail: true });
	const expected = plan(seeds);
	expect(first.json.map(outcomeOf)).toEqual(expected);
	const stop = first.json.find((json) => String(json.error).startsWith('Not attempted'));
	expect(String(stop?.error)).toMatch(/^Not attempted: Stop After Failures \(2%\) was exceeded/);
	for (const [i, id] of ids.entries()) {
		const copies = copiesOf(id);
		const active = Object.values(copies).filter((status) => status === 1);
		expect([id, active.length]).toEqual([id, 1]); // never both, never neither
		expect([id, copies[expected[i] === 'upgraded' ? 105 : 101]]).toEqual([id, 1]);
	}
	expect(activeCopiesOf(ctx.emu.state).summary()).toMatchObject({ events: 0 });

	await control('DELETE', '/faults');
	const resume = await runPartner(ctx.emu, params, { inputItems, continueOnFail: true });
	expect(resume.json.map(outcomeOf)).toEqual(
		expected.map((o) => (o === 'upgraded' ? 'alreadyUpgraded' : 'upgraded')),
	);
	for (const { id, installationId } of seeded) {
		expect([id, copiesOf(id)]).toEqual([id, { 101: 0, 105: 1 }]);
		const upgraded = [...ctx.emu.state.installations.values()].find(
			(i) => i.title === `Leads of ${id}` && i.solutionId === 105,
		)!;
		expect(fieldOf(ctx.emu, upgraded.id, 1051, 1, 'mailSubject').value).toBe(`Hello ${id}`);
		expect(installationId).toBeLessThan(upgraded.id);
	}
	expect(activeCopiesOf(ctx.emu.state).summary()).toMatchObject({ events: 0 });
}, 240_000);
