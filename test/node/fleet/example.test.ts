/**
 * examples/fleet-change.workflow.json: its Albato node, with its own parameters, run in n8n-core for
 * the example's customers (Set, Split Out and Code are n8n's own nodes: `npm run e2e:n8n` runs the
 * whole workflow, with a stop halfway and a resume). A customer unknown to Albato fails after the
 * canaries, which stops the run; once that customer exists, a second run finishes the others and
 * writes nothing for the customers that were done.
 */
import { join } from 'path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { readExample } from '../../../harness/examples';
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { writesIn } from './fleetSetup';

const ctx = usePartnerEmulator();
const workflow = readExample(
	join(__dirname, '..', '..', '..', 'examples', 'fleet-change.workflow.json'),
);
const ensureNode = workflow.nodes.find((node) => node.name === 'Ensure new subject')!;

describe('examples/fleet-change.workflow.json', () => {
	it('is wired as the recipe says: partner mode, Canary Items 5, Stop After Failures 2%, the error output', () => {
		expect(ensureNode.parameters).toMatchObject({
			authentication: 'partnerApi',
			operation: 'ensure',
			requestOptions: { canaryItems: 5, stopAfterFailures: '2%' },
		});
		expect(ensureNode.onError).toBe('continueErrorOutput');
		const known = new Set(
			new AlbatoSolutions().description.properties.map((property) => property.name),
		);
		for (const parameter of Object.keys(ensureNode.parameters ?? {}))
			expect(known.has(parameter)).toBe(true);
	});

	it('stops after the canaries when a customer fails, and a rerun finishes without writing for those done', async () => {
		const customers = Array.from({ length: 12 }, (_x, i) => ({
			customerId: `fleet-${String(i + 1).padStart(2, '0')}`,
		}));
		// fleet-07 is not an Albato end user yet: its item fails (the canaries, 1–5, all succeed).
		await addUsers(
			ctx.emu,
			customers.filter((c) => c.customerId !== 'fleet-07').map((c) => c.customerId),
		);
		const parameters = {
			...ensureNode.parameters,
			requestOptions: { canaryItems: 5, stopAfterFailures: '2%', concurrency: 1 },
		} as INodeParameters;
		const first = await runPartner(ctx.emu, parameters, {
			inputItems: customers,
			continueOnFail: true,
		});
		const notAttempted = first.json.filter(
			(json) => (json.details as IDataObject | undefined)?.notAttempted,
		);
		expect(first.json.filter((json) => json.installation).map((json) => json.created)).toEqual(
			Array(6).fill(true),
		);
		expect(first.json[6].error).toBeDefined();
		expect(notAttempted).toHaveLength(5);
		expect(notAttempted[0].error).toBe(
			'Not attempted: Stop After Failures (2%) was exceeded. 6 done, 1 failed, 5 not attempted',
		);

		const doneUsers = new Set(
			customers.slice(0, 6).map((c) => `${ctx.emu.partner.name}:${c.customerId}`),
		);
		const writesForDone = () =>
			ctx.emu.requests.filter(
				(r) => doneUsers.has(r.user ?? '') && writesIn([`${r.method} ${r.path}`]).length > 0,
			);
		expect(writesForDone().length).toBeGreaterThanOrEqual(6); // the first run installed for them

		await addUsers(ctx.emu, ['fleet-07']); // (and clears the request log)
		const second = await runPartner(ctx.emu, parameters, {
			inputItems: customers,
			continueOnFail: true,
		});
		expect(second.json.map((json) => json.unchanged)).toEqual([
			...Array(6).fill(true),
			...Array(6).fill(false),
		]);
		expect(writesForDone()).toEqual([]);
		expect(writesIn(second.calls).length).toBeGreaterThan(0);
	});
});
