/**
 * examples/fleet-change.workflow.json and fleet-restore.workflow.json in n8n-core.
 *
 * - The Ensure node alone, with its own parameters, for the example's customers: a customer unknown
 *   to Albato fails after the canaries, which stops the run; once that customer exists, a second run
 *   finishes the others and writes nothing for the customers that were done.
 * - Both examples whole (their connections, positions and expressions), with small stand-ins for
 *   n8n's Set, Split Out, No Operation, Code and Data Table (test/support/fleetStandIns.ts; n8n's
 *   own nodes are not installed here): every customer's snapshot is kept before Ensure starts, and
 *   the restore example puts a customer back exactly. `npm run e2e:n8n` runs both with n8n's real
 *   nodes and Data Table, with a stop halfway and a resume (scripts/e2e/fleet.mjs).
 */
import { join } from 'path';
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../../emulator';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { type ExampleWorkflow, readExample, runExample } from '../../../harness/examples';
import { fleetStandIns, type Tables } from '../../support/fleetStandIns';
import {
	addUsers,
	installFor,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { writesIn } from './fleetSetup';

const ctx = usePartnerEmulator();
const example = (file: string) => readExample(join(__dirname, '..', '..', '..', 'examples', file));
const workflow = example('fleet-change.workflow.json');
const restoreWorkflow = example('fleet-restore.workflow.json');
const named = (w: ExampleWorkflow, name: string) => w.nodes.find((node) => node.name === name)!;
const ensureNode = named(workflow, 'Ensure new subject');
const TITLE = 'CRM Leads to Mailer';
const TABLE = 'Fleet change snapshots';
const ALBATO = 'n8n-nodes-albato-solutions.albatoSolutions';

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
		for (const node of [...workflow.nodes, ...restoreWorkflow.nodes].filter(
			(n) => n.type === ALBATO,
		))
			for (const parameter of Object.keys(node.parameters ?? {}))
				expect([node.name, parameter, known.has(parameter)]).toEqual([node.name, parameter, true]);
	});

	it('snapshots first: a branch above Ensure finds, snapshots and keeps every customer; the restore reads them back', () => {
		const targets = (w: ExampleWorkflow, from: string, output = 0) =>
			(w.connections[from]?.main?.[output] ?? []).map((c) => c?.node);
		expect(workflow.connections['Run now'].main[0]?.map((c) => c.node)).toEqual(['Snapshot table']);
		expect(targets(workflow, 'One item per customer')).toEqual([
			'Find the installation',
			'Ensure new subject',
		]);
		// n8n (executionOrder v1) runs the upper branch to its end before the lower one.
		expect((workflow as { settings?: IDataObject }).settings?.executionOrder).toBe('v1');
		const y = (name: string) => named(workflow, name).position![1];
		expect(y('Find the installation')).toBeLessThan(y('Ensure new subject'));
		expect(targets(workflow, 'Find the installation')).toEqual(['Get snapshot']);
		expect(targets(workflow, 'Find the installation', 1)).toEqual(['No snapshot']);
		expect(targets(workflow, 'Get snapshot')).toEqual(['Keep snapshot']);
		expect(named(workflow, 'Find the installation')).toMatchObject({
			onError: 'continueErrorOutput',
			parameters: {
				authentication: 'partnerApi',
				endUserId: '={{ $json.customerId }}',
				operation: 'getAll',
				filters: { solutionId: ensureNode.parameters!.solutionId, title: TITLE },
			},
		});
		// Get Snapshot and Keep stop the run when they fail: nothing changes without the snapshots.
		expect(named(workflow, 'Get snapshot').onError).toBeUndefined();
		expect(named(workflow, 'Keep snapshot').onError).toBeUndefined();
		expect(named(workflow, 'Get snapshot').parameters).toMatchObject({
			authentication: 'partnerApi',
			// The customer of the item Find the installation was given (pairing), as Ensure's $json.customerId.
			endUserId: "={{ $('One item per customer').item.json.customerId }}",
			operation: 'getSnapshot',
		});
		const table = named(workflow, 'Snapshot table').parameters as IDataObject;
		expect(table).toMatchObject({ tableName: TABLE, options: { createIfNotExists: true } });
		const columns = (table.columns as { column: Array<{ name: string }> }).column.map(
			(c) => c.name,
		);
		const keep = named(workflow, 'Keep snapshot').parameters as IDataObject;
		expect(keep).toMatchObject({
			operation: 'insert',
			dataTableId: { mode: 'name', value: TABLE },
		});
		expect(Object.keys((keep.columns as { value: IDataObject }).value)).toEqual(columns);
		expect(named(restoreWorkflow, 'Kept snapshots')).toMatchObject({
			alwaysOutputData: true,
			parameters: { operation: 'get', dataTableId: { mode: 'name', value: TABLE } },
		});
		expect(named(restoreWorkflow, 'Restore')).toMatchObject({
			onError: 'continueErrorOutput',
			parameters: {
				authentication: 'partnerApi',
				endUserId: '={{ $json.customerId }}',
				operation: 'ensure',
				desiredStateMode: 'snapshot',
				snapshot: '={{ $json.snapshot }}',
			},
		});
		expect(JSON.stringify([workflow, restoreWorkflow])).not.toMatch(/eyJhbGci|masterToken/);
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
		// Each item names its customer (partner mode), as End User and Run outputs do.
		expect(first.json.slice(0, 6).map((json) => json.endUserId)).toEqual(
			customers.slice(0, 6).map((c) => c.customerId),
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

	it('a stop names the item as a person counts it, and its customer', async () => {
		const customers = ['fleet-01', 'fleet-02', 'fleet-03', 'fleet-04', 'fleet-05', 'fleet-06'];
		await addUsers(
			ctx.emu,
			customers.filter((id) => id !== 'fleet-05'),
		);
		const run = await runPartner(
			ctx.emu,
			{
				...ensureNode.parameters,
				requestOptions: { canaryItems: 5, concurrency: 1 },
			} as INodeParameters,
			{ inputItems: customers.map((customerId) => ({ customerId })), continueOnFail: true },
		);
		expect(run.json[5].error).toBe(
			'Not attempted: canary item 5 (fleet-05) failed (Canary Items 5). 4 done, 1 failed, 1 not attempted',
		);
	});
});

/** The example as n8n-core runs it here: without its sticky notes, with a node's JSON replaced. */
const runnable = (w: ExampleWorkflow, node: string, jsonOutput: IDataObject): ExampleWorkflow => ({
	...w,
	nodes: w.nodes
		.filter((n) => n.type !== 'n8n-nodes-base.stickyNote')
		.map((n) =>
			n.name === node
				? { ...n, parameters: { ...n.parameters, jsonOutput: JSON.stringify(jsonOutput) } }
				: n,
		),
});

/** A customer's installation titled TITLE: id, status and every field value, by step and code. */
function installationOf(emu: Emulator, customerId: string) {
	const userId = `${emu.partner.name}:${customerId}`;
	const mine = [...emu.state.installations.values()].filter(
		(i) => i.userId === userId && i.title === TITLE,
	);
	expect(mine.length).toBeLessThanOrEqual(1);
	if (!mine[0]) return undefined;
	const fields = [...emu.state.bundleData.values()]
		.filter((record) => mine[0].bundleIds.includes(record.bundleId))
		.flatMap((record) => record.fields.map((f) => [`${record.title} → ${f.name}`, f.value]));
	return { id: mine[0].id, status: mine[0].status, fields: Object.fromEntries(fields.sort()) };
}

const snapshotFields = (snapshot: string) =>
	Object.fromEntries(
		(JSON.parse(snapshot) as { fieldValues: IDataObject[] }).fieldValues
			.map((f) => [`${String(f.step)} → ${String(f.code)}`, f.value])
			.sort(),
	);

describe("the fleet examples whole, in n8n-core with stand-ins for n8n's nodes", () => {
	it('keeps every customer before Ensure starts; the restore example puts one back exactly', async () => {
		const customers = Array.from(
			{ length: 12 },
			(_x, i) => `fleet-${String(i + 1).padStart(2, '0')}`,
		);
		// fleet-07 is not an Albato end user yet; fleet-03 has no installation yet (Ensure installs it).
		await addUsers(
			ctx.emu,
			customers.filter((id) => id !== 'fleet-07'),
		);
		const installed = customers.filter((id) => id !== 'fleet-07' && id !== 'fleet-03');
		for (const id of installed) await installFor(ctx.emu, id, TITLE); // paused, as installed
		const before = Object.fromEntries(installed.map((id) => [id, installationOf(ctx.emu, id)!]));
		const tables: Tables = new Map();
		const nodeTypes = [new AlbatoSolutions(), ...fleetStandIns(tables)];
		const credentials = { albatoPartnerApi: partnerCredential(ctx.emu) };

		const change = await runExample(
			runnable(workflow, 'Customers to change', {
				customers: customers.map((customerId) => ({ customerId })),
			}),
			nodeTypes,
			credentials,
		);
		for (const node of workflow.nodes)
			expect([node.name, change.error(node.name)]).toEqual([node.name, undefined]);
		const runData = change.run.data.resultData.runData;
		const kept = runData['Keep snapshot'][0];
		expect(kept.startTime + kept.executionTime).toBeLessThanOrEqual(
			runData['Ensure new subject'][0].startTime,
		);
		const rows = tables.get(TABLE.toLowerCase())!.rows;
		expect(rows.map((row) => row.customerId)).toEqual(installed);
		const executionId = rows[0].executionId;
		for (const row of rows) {
			const was = before[String(row.customerId)];
			expect(row).toMatchObject({
				executionId,
				installationId: was.id,
				title: TITLE,
				status: 'paused',
			});
			expect(snapshotFields(String(row.snapshot))).toEqual(was.fields);
		}
		expect(change.output('No snapshot').map((item) => item.json.customerId)).toEqual(['fleet-07']);
		const [report] = change.output('Report').map((item) => item.json);
		// fleet-03 had no installation to keep, fleet-07 could not be read: both named.
		expect(report.snapshots).toEqual({
			executionId,
			firstExecutionId: executionId,
			kept: 10,
			noSnapshot: ['fleet-03', 'fleet-07'],
		});
		expect((report.failed as IDataObject[]).map((f) => f.customer)).toEqual(['fleet-07']);
		expect(report.changed).toEqual(expect.arrayContaining(['fleet-01', 'fleet-02', 'fleet-03']));
		expect((report.changed as string[]).length + (report.notAttempted as string[]).length).toBe(11);
		expect(installationOf(ctx.emu, 'fleet-02')!.status).toBe(1);

		// Resumed once fleet-07 exists: the report names the first run, whose rows are the fleet before.
		await addUsers(ctx.emu, ['fleet-07']);
		const resumed = await runExample(
			runnable(workflow, 'Customers to change', {
				customers: customers.map((customerId) => ({ customerId })),
			}),
			nodeTypes,
			credentials,
		);
		const [resumedReport] = resumed.output('Report').map((item) => item.json);
		const secondId = rows.at(-1)!.executionId;
		expect(secondId).not.toBe(executionId);
		expect(resumedReport.unchanged).toEqual(expect.arrayContaining(['fleet-01', 'fleet-02']));
		expect(resumedReport.snapshots).toMatchObject({
			executionId: secondId,
			firstExecutionId: executionId,
		});

		// Nothing to restore stops the run before any write, naming each customer and where the ID is.
		// No ": " in them: n8n 2.0's Code node takes the text before one for the error's type.
		const where = `Set executionId in "Customers to restore" to the fleet change's first run, snapshots.firstExecutionId in the output of its Report node or that run's ID in the Executions list.`;
		const restoreWith = async (request: IDataObject) =>
			await runExample(
				runnable(restoreWorkflow, 'Customers to restore', request),
				nodeTypes,
				credentials,
			);
		const requests = ctx.emu.requests.length;
		for (const [given, why] of [
			['', 'executionId is empty'],
			['999999', `the Data Table "${TABLE}" has no row of execution '999999'`],
		]) {
			const stopped = await restoreWith({
				executionId: given,
				customerIds: ['fleet-02', 'fleet-05'],
			});
			expect(stopped.error('Match the customers')?.message).toBe(
				`No snapshot of fleet-02, fleet-05 in execution '${given}' (${why}). ${where}`,
			);
			expect(stopped.error('Match the customers')?.message).not.toContain(': ');
			expect(stopped.output('Restore')).toEqual([]);
		}
		const nobody = await restoreWith({ executionId, customerIds: ['fleet-03'] });
		expect(nobody.error('Match the customers')?.message).toMatch(
			new RegExp(`^No snapshot of fleet-03 in execution '${executionId}' \\(that run kept 10 rows`),
		);
		expect(nobody.error('Match the customers')?.message).not.toContain(': ');
		expect(ctx.emu.requests.length).toBe(requests);

		const restore = await restoreWith({ executionId, customerIds: ['fleet-02', 'fleet-03'] });
		for (const node of restoreWorkflow.nodes)
			expect([node.name, restore.error(node.name)]).toEqual([node.name, undefined]);
		expect(restore.outputAt('Restore', 1)).toEqual([]);
		expect(restore.output('Restore').map((item) => item.json.unchanged)).toEqual([false]);
		expect(restore.output('Report').map((item) => item.json)).toEqual([
			{
				executionId,
				preview: false,
				restored: ['fleet-02'],
				unchanged: [],
				failed: [],
				notAttempted: [],
				noSnapshot: ['fleet-03'],
				notes: [`no snapshot of fleet-03 in execution '${executionId}': left as it is`],
			},
		]);
		expect(installationOf(ctx.emu, 'fleet-02')).toEqual(before['fleet-02']);
		expect(installationOf(ctx.emu, 'fleet-01')!.fields['Send welcome email → subject']).toBe(
			'Welcome to the new plan',
		);

		// Again: every customer already matches the snapshot, which a later run's snapshot would too.
		const again = await restoreWith({ executionId, customerIds: ['fleet-02'] });
		expect(again.output('Report').map((item) => item.json)).toMatchObject([
			{
				restored: [],
				unchanged: ['fleet-02'],
				notes: [
					expect.stringMatching(
						new RegExp(
							`^Every customer already matches execution ${executionId}'s snapshot: is it the change's first run\\?`,
						),
					),
				],
			},
		]);
	});
});
