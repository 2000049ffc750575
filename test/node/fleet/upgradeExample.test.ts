/**
 * examples/fleet-upgrade.workflow.json and fleet-rollback.workflow.json, whole, in n8n-core with
 * stand-ins for n8n's Set, Split Out, No Operation and Code (test/support/fleetStandIns.ts): Preview
 * first (nothing written), then the run (a customer unknown to Albato fails, the Report names every
 * customer and every unmapped value), a resume (nothing written for those done), then the roll
 * back, twice (nothing written the second time).
 */
import { join } from 'path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { activeCopiesOf } from '../../../emulator/activeCopies';
import { type ExampleWorkflow, readExample, runExample } from '../../../harness/examples';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { fleetStandIns } from '../../support/fleetStandIns';
import {
	addUsers,
	installFor,
	partnerCredential,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { writesIn } from './fleetSetup';

const ctx = usePartnerEmulator();
const example = (file: string) => readExample(join(__dirname, '..', '..', '..', 'examples', file));
const upgrade = example('fleet-upgrade.workflow.json');
const rollBack = example('fleet-rollback.workflow.json');
const TITLE = 'CRM Leads to Mailer';
const ALBATO = 'n8n-nodes-albato-solutions.albatoSolutions';
const CUSTOMERS = ['fleet-01', 'fleet-02', 'fleet-03', 'fleet-04'];

/** The example as n8n-core runs it here: no sticky notes, our customers, Request Options changed. */
function runnable(w: ExampleWorkflow, requestOptions: IDataObject = {}): ExampleWorkflow {
	return {
		...w,
		nodes: w.nodes
			.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
			.map((n) => {
				if (n.name.startsWith('Customers to'))
					return {
						...n,
						parameters: {
							...n.parameters,
							jsonOutput: JSON.stringify({
								customers: CUSTOMERS.map((customerId) => ({ customerId })),
							}),
						},
					};
				if (n.type !== ALBATO) return n;
				const own = n.parameters!.requestOptions as IDataObject;
				const parameters = { ...n.parameters, requestOptions: { ...own, ...requestOptions } };
				return { ...n, parameters: parameters as INodeParameters };
			}),
	};
}

async function run(w: ExampleWorkflow, requestOptions: IDataObject = {}) {
	const before = ctx.emu.requests.length;
	const result = await runExample(
		runnable(w, requestOptions),
		[new AlbatoSolutions(), ...fleetStandIns(new Map())],
		{ albatoPartnerApi: partnerCredential(ctx.emu) },
	);
	const calls = ctx.emu.requests.slice(before).map((r) => `${r.method} ${r.path}`);
	return { report: result.output('Report')[0].json, calls };
}

/** Each customer's active installations of TITLE, by solution. */
function activeOf(customerId: string): number[] {
	const userId = `${ctx.emu.partner.name}:${customerId}`;
	return [...ctx.emu.state.installations.values()]
		.filter((i) => i.userId === userId && i.title === TITLE && i.status === 1)
		.map((i) => i.solutionId);
}

describe('examples/fleet-upgrade.workflow.json and fleet-rollback.workflow.json', () => {
	it('are wired as their notes say: partner mode, same settings both ways, Preview off, a canary, a stop, the error output', () => {
		const node = (w: ExampleWorkflow) => w.nodes.find((n) => n.type === ALBATO)!;
		const known = new Set(new AlbatoSolutions().description.properties.map((p) => p.name));
		for (const w of [upgrade, rollBack]) {
			expect(node(w)).toMatchObject({
				typeVersion: 4,
				onError: 'continueErrorOutput',
				parameters: {
					authentication: 'partnerApi',
					endUserId: '={{ $json.customerId }}',
					operation: 'upgrade',
					requestOptions: { canaryItems: 20, stopAfterFailures: '2%' },
				},
			});
			for (const name of Object.keys(node(w).parameters ?? {}))
				expect([name, known.has(name)]).toEqual([name, true]);
		}
		const { direction: up, ...upgradeParameters } = node(upgrade).parameters as INodeParameters;
		const { direction: back, ...rollBackParameters } = node(rollBack).parameters as INodeParameters;
		expect([up, back]).toEqual(['upgrade', 'rollBack']);
		expect(rollBackParameters).toEqual(upgradeParameters);
		expect(JSON.stringify([upgrade, rollBack])).not.toMatch(/eyJhbGci|masterToken/);
	});

	it('Preview, then the upgrade, a resume, then the roll back twice', async () => {
		// fleet-04 is not an Albato end user: it fails (after the others, Canary Items 20 > 4 items).
		await addUsers(ctx.emu, CUSTOMERS.slice(0, 3));
		for (const id of CUSTOMERS.slice(0, 3)) await installFor(ctx.emu, id, TITLE);
		for (const installation of ctx.emu.state.installations.values())
			if (installation.title === TITLE) installation.status = 1; // the customers' running copies
		// fleet-03 was switched off before the upgrade: it stays off, both ways.
		const off = [...ctx.emu.state.installations.values()].find(
			(i) => i.title === TITLE && i.userId.endsWith(':fleet-03'),
		)!;
		off.status = 0;

		const preview = await run(upgrade, { preview: true });
		expect(writesIn(preview.calls).filter((call) => !call.includes('/wl/'))).toEqual([]);
		expect(preview.report).toMatchObject({ preview: true });

		const first = await run(upgrade, { canaryItems: 0 });
		expect(first.report).toMatchObject({
			preview: false,
			failed: [{ customer: 'fleet-04' }],
			notAttempted: [],
			unmappedCustomers: ['fleet-01', 'fleet-02', 'fleet-03'],
			leftPaused: ['fleet-03'],
		});
		const customers = first.report.customers as IDataObject[];
		expect(customers.map((c) => [c.customer, c.state])).toEqual([
			['fleet-01', 'upgraded'],
			['fleet-02', 'upgraded'],
			['fleet-03', 'upgraded'],
		]);
		expect(customers[0].unmapped).toEqual([
			'New lead → welcome email / New lead in CRM / onlyNew: step "New lead in CRM" has no field "onlyNew"',
		]);
		for (const id of CUSTOMERS.slice(0, 2)) expect(activeOf(id)).toEqual([105]);
		expect(activeOf('fleet-03')).toEqual([]);

		const resume = await run(upgrade);
		const states = (resume.report.customers as IDataObject[]).map((c) => c.state);
		expect(states).toEqual(['alreadyUpgraded', 'alreadyUpgraded', 'alreadyUpgraded']);
		expect(writesIn(resume.calls).filter((call) => !call.includes('/wl/'))).toEqual([]);

		const back = await run(rollBack);
		// fleet-03: both paused and its values alike, nothing to move back.
		expect((back.report.customers as IDataObject[]).map((c) => c.state)).toEqual([
			'rolledBack',
			'rolledBack',
			'alreadyRolledBack',
		]);
		expect(back.report.leftPaused).toEqual(['fleet-03']);
		for (const id of CUSTOMERS.slice(0, 2)) expect(activeOf(id)).toEqual([101]);
		expect(activeOf('fleet-03')).toEqual([]);
		expect(activeCopiesOf(ctx.emu.state).events).toBe(0); // never two active, at any moment
		const twice = await run(rollBack);
		expect(writesIn(twice.calls).filter((call) => !call.includes('/wl/'))).toEqual([]);
		expect((twice.report.customers as IDataObject[]).map((c) => c.state)).toEqual([
			'alreadyRolledBack',
			'alreadyRolledBack',
			'alreadyRolledBack',
		]);
	});
});
