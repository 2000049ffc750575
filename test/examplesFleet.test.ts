/**
 * examples/fleet-watch.workflow.json. Its schedule, Set and Split Out nodes are n8n's
 * own (only real n8n has them: `npm run e2e:n8n` runs it there on its schedule). Here: the Albato
 * node as the example configures it, fed the example's customer items, over several sweeps.
 */
import { join } from 'path';
import type { INodeParameters } from 'n8n-workflow';

import { readExample } from '../harness/examples';
import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { usePartnerEmulator } from './support/partnerSetup';
import { customerWithTwoAutomations, runClock, watcher } from './support/sweeps';

const ctx = usePartnerEmulator();
const workflow = readExample(join(__dirname, '..', 'examples', 'fleet-watch.workflow.json'));
const albato = workflow.nodes.filter(
	(node) => node.type === 'n8n-nodes-albato-solutions.albatoSolutions',
);

it('has one Albato node, in partner mode, with parameters the node has; the mail node ships disabled', () => {
	expect(albato).toHaveLength(1);
	const names = new Set(new AlbatoSolutions().description.properties.map((p) => p.name));
	const parameters = albato[0].parameters ?? {};
	expect(parameters).toMatchObject({
		authentication: 'partnerApi',
		resource: 'run',
		operation: 'getNew',
		groupIntoIncidents: true,
	});
	for (const name of Object.keys(parameters)) expect([name, names.has(name)]).toEqual([name, true]);
	expect(albato[0].onError).toBe('continueErrorOutput');
	expect(workflow.nodes.find((node) => node.type === 'n8n-nodes-base.emailSend')?.disabled).toBe(
		true,
	);
	expect(JSON.stringify(workflow)).not.toMatch(/eyJhbGci|masterToken/);
});

it("the example's node over sweeps: one item per incident opened and resolved, none repeated", async () => {
	const emu = ctx.emu;
	const at = runClock(Date.now() - 60000);
	const { endUserId, ...parameters } = albato[0].parameters as INodeParameters;
	expect(endUserId).toBe('={{ $json.customerId }}');
	const w = watcher(emu, { partner: true, parameters });
	const [acme] = await customerWithTwoAutomations(emu, 'acme');
	const [globex] = await customerWithTwoAutomations(emu, 'globex');
	emu.recordRun({ bundleId: acme, outcome: 'succeeded', dateCreated: at() });
	const customers = [{ customer: 'acme' }, { customer: 'globex' }, { customer: 'gone' }];
	const events = async () =>
		(await w.sweep(customers)).json.map(
			(item) => `${String(item.event)} ${String(item.endUserId)}`,
		);
	expect(await events()).toEqual([]);
	emu.recordRun({ bundleId: acme, outcome: 'failed', dateCreated: at() });
	emu.recordRun({ bundleId: globex, outcome: 'failed', dateCreated: at() });
	expect(await events()).toEqual(['incidentOpened acme', 'incidentOpened globex']);
	emu.recordRun({ bundleId: acme, outcome: 'failed', dateCreated: at() });
	expect(await events()).toEqual([]);
	emu.recordRun({ bundleId: acme, outcome: 'succeeded', dateCreated: at() });
	expect(await events()).toEqual(['incidentResolved acme']);
	const last = await w.sweep(customers);
	expect(last.json).toEqual([]);
	expect(last.errorPairs).toEqual([{ item: 2 }]); // the unknown customer, alone
});
