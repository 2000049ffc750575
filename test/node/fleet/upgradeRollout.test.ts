/**
 * Installation → Upgrade over a fleet (partner mode, one item per customer) with the router's
 * guard: two customers fail at different steps, Stop After Failures stops the rest, nobody is left
 * with two active copies or none, and a rerun (resume) sends nothing for the customers done and
 * finishes the others.
 */
import type { IDataObject } from 'n8n-workflow';

import { addUsers, installFor, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { upgradeParams } from '../../support/upgrades';
import { writesIn } from './fleetSetup';

const ctx = usePartnerEmulator();
const TITLE = 'CRM Leads to Mailer';
const CUSTOMERS = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'];

/** Each customer's installations of TITLE: solution → status. */
function copiesOf(customer: string): Record<number, number> {
	const userId = `${ctx.emu.partner.name}:${customer}`;
	return Object.fromEntries(
		[...ctx.emu.state.installations.values()]
			.filter((i) => i.userId === userId && i.title === TITLE)
			.map((i) => [i.solutionId, i.status]),
	);
}

/** The old installation of a customer (solution 101). */
const oldOf = (customer: string) =>
	[...ctx.emu.state.installations.values()].find(
		(i) => i.userId === `${ctx.emu.partner.name}:${customer}` && i.solutionId === 101,
	)!.id;

const params = (requestOptions: IDataObject) =>
	upgradeParams({
		endUserId: '={{ $json.customer }}',
		title: TITLE,
		templateIds: [1051],
		requestOptions: { concurrency: 1, maxRetries: 0, ...requestOptions },
	});

it('two customers fail at different steps: the guard stops, nobody is left broken, a rerun finishes', async () => {
	await addUsers(ctx.emu, CUSTOMERS);
	for (const customer of CUSTOMERS) await installFor(ctx.emu, customer, TITLE);
	for (const installation of ctx.emu.state.installations.values())
		if (installation.title === TITLE) installation.status = 1;
	ctx.emu.faults.add({
		method: 'PAUSE',
		path: `/solution/installation/${oldOf('c2')}`,
		status: 422,
	});
	ctx.emu.faults.add({ method: 'PUT', path: /^\/bundle\/data\/\d+$/, status: 422, times: 1 });
	// c1 writes nothing (its values are the defaults): the PUT fault meets c3's subject first.
	const oldSubject = ctx.emu.state.bundleData
		.get(
			ctx.emu.state.bundles.get(ctx.emu.state.installations.get(oldOf('c3'))!.bundleIds[0])!
				.stepIds[1],
		)!
		.fields.find((f) => f.name === 'subject')!;
	oldSubject.value = 'Hello c3';

	const inputItems = CUSTOMERS.map((customer) => ({ customer }));
	const first = await runPartner(ctx.emu, params({ stopAfterFailures: '1' }), {
		inputItems,
		continueOnFail: true,
	});
	const outcome = first.json.map((json) =>
		json.state
			? String(json.state)
			: String((json.details as IDataObject | undefined)?.failedAt ?? json.error).slice(0, 13),
	);
	expect(outcome).toEqual([
		'upgraded',
		'pauseOld',
		'values',
		'Not attempted',
		'Not attempted',
		'Not attempted',
	]);
	expect(copiesOf('c1')).toEqual({ 101: 0, 105: 1 });
	expect(copiesOf('c2')).toEqual({ 101: 1, 105: 0 });
	expect(copiesOf('c3')).toEqual({ 101: 1, 105: 0 });
	expect(copiesOf('c4')).toEqual({ 101: 1 });

	const before = ctx.emu.requests.length;
	const second = await runPartner(ctx.emu, params({ stopAfterFailures: '1' }), {
		inputItems,
		continueOnFail: true,
	});
	expect(second.json.map((json) => json.state)).toEqual([
		'alreadyUpgraded',
		...Array(5).fill('upgraded'),
	]);
	const c1 = `${ctx.emu.partner.name}:c1`;
	const c1Writes = ctx.emu.requests
		.slice(before)
		.filter((r) => r.user === c1)
		.map((r) => `${r.method} ${r.path}`);
	expect(writesIn(c1Writes)).toEqual([]);
	for (const customer of CUSTOMERS) expect(copiesOf(customer)).toEqual({ 101: 0, 105: 1 });
	expect(ctx.emu.state.activeCopies.summary()).toMatchObject({ events: 0 });
});
