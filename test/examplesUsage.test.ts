/**
 * examples/usage-topup.workflow.json run in n8n-core with our node and small stand-ins
 * for the n8n nodes it uses (Schedule/Manual Trigger, Set, Split Out, If: only the parameters the
 * example sets). The real nodes run it in `npm run e2e:n8n` (scripts/e2e/billing.mjs). Customers
 * under 10% left get Add Transactions or Set Plan as their rule says; the others are untouched; the
 * report runs once and names every customer; no secret in the run.
 */
import { join } from 'path';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { readExample, runExample } from '../harness/examples';
import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { fleetStandIns } from './support/fleetStandIns';
import { addUsers, partnerCredential, usePartnerEmulator } from './support/partnerSetup';

const ctx = usePartnerEmulator();

function standIn(
	name: string,
	version: number[],
	properties: INodeTypeDescription['properties'],
	run: (fn: IExecuteFunctions, items: INodeExecutionData[]) => INodeExecutionData[][],
	outputs = 1,
): INodeType {
	return {
		description: {
			displayName: name,
			name,
			group: ['transform'],
			version,
			description: `Stand-in for ${name}`,
			defaults: { name },
			inputs: name.endsWith('Trigger') ? [] : [NodeConnectionTypes.Main],
			outputs: Array.from({ length: outputs }, () => NodeConnectionTypes.Main),
			properties,
		},
		async execute(this: IExecuteFunctions) {
			return run(this, this.getInputData());
		},
	};
}

const json = (name: string) => ({ displayName: name, name, type: 'json' as const, default: '' });
const text = (name: string) => ({ displayName: name, name, type: 'string' as const, default: '' });
const anything = (name: string) => ({ ...json(name), default: {} });

const STAND_INS: INodeType[] = [
	standIn('n8n-nodes-base.scheduleTrigger', [1.2], [anything('rule')], () => [[{ json: {} }]]),
	// Set: raw JSON (one item), or assignments (each item).
	standIn(
		'n8n-nodes-base.set',
		[3.4],
		[text('mode'), json('jsonOutput'), anything('assignments'), anything('options')],
		(fn, items) => [
			items.map((_item, i) => {
				if (fn.getNodeParameter('mode', i, '') === 'raw')
					return {
						json: JSON.parse(fn.getNodeParameter('jsonOutput', i) as string) as IDataObject,
						pairedItem: { item: i },
					};
				const list = fn.getNodeParameter('assignments.assignments', i, []) as Array<{
					name: string;
					value: unknown;
				}>;
				return {
					json: Object.fromEntries(list.map((a) => [a.name, a.value])) as IDataObject,
					pairedItem: { item: i },
				};
			}),
		],
	),
	standIn(
		'n8n-nodes-base.splitOut',
		[1],
		[text('fieldToSplitOut'), anything('options')],
		(fn, items) => [
			items.flatMap((item, i) =>
				(item.json[fn.getNodeParameter('fieldToSplitOut', i) as string] as IDataObject[]).map(
					(entry) => ({ json: entry, pairedItem: { item: i } }),
				),
			),
		],
	),
	// If: "boolean is true" and "string equals", all conditions (and).
	standIn(
		'n8n-nodes-base.if',
		[2.2],
		[
			anything('conditions'),
			{ ...json('looseTypeValidation'), default: false },
			anything('options'),
		],
		(fn, items) => {
			const outputs: INodeExecutionData[][] = [[], []];
			items.forEach((item, i) => {
				const { conditions } = fn.getNodeParameter('conditions', i) as {
					conditions: Array<{
						leftValue: unknown;
						rightValue: unknown;
						operator: { operation: string };
					}>;
				};
				const pass = conditions.every((c) =>
					c.operator.operation === 'true' ? c.leftValue === true : c.leftValue === c.rightValue,
				);
				outputs[pass ? 0 : 1].push({ json: item.json, pairedItem: { item: i } });
			});
			return outputs;
		},
		2,
	),
	// Code (run once for all items), as the fleet examples' stand-in runs it.
	...fleetStandIns(new Map()).filter((node) => node.description.name === 'n8n-nodes-base.code'),
];

describe('examples/usage-topup.workflow.json', () => {
	it('tops up or upgrades the customers under 10% left, and reports them', async () => {
		await addUsers(ctx.emu, ['acme', 'globex', 'initech']);
		ctx.emu.setTransactionsUsed('acme', 950); // 50 of 1000 left: under 10%
		ctx.emu.setTransactionsUsed('globex', 920); // 80 of 1000 left: under 10%
		ctx.emu.setTransactionsUsed('initech', 500); // half left
		const example = readExample(join(__dirname, '..', 'examples', 'usage-topup.workflow.json'));
		// Its note is for the reader: n8n-core runs the rest.
		const workflow = {
			...example,
			nodes: example.nodes.filter((node) => node.type !== 'n8n-nodes-base.stickyNote'),
		};
		const result = await runExample(workflow, [new AlbatoSolutions(), ...STAND_INS], {
			albatoPartnerApi: partnerCredential(ctx.emu),
		});
		for (const node of workflow.nodes)
			expect([node.name, result.error(node.name)]).toEqual([node.name, undefined]);

		const wl = (endpoint: string) =>
			ctx.emu.requests
				.filter((r) => r.path === `/wl/${ctx.emu.partner.name}/${endpoint}`)
				.map((r) => r.body);
		expect(wl('get-user-profile')).toEqual([{ id: 'acme' }, { id: 'globex' }, { id: 'initech' }]);
		expect(wl('list-plans')).toHaveLength(2); // once for Usage, once for Set Plan (two executions of the node)
		expect(wl('add-user-plan-transactions')).toEqual([{ id: 'acme', count: 1000 }]);
		expect(wl('set-user-plan')).toEqual([{ id: 'globex', planId: 23 }]);

		// Report runs once, after both branches, and names every customer, those not low included.
		expect(result.run.data.resultData.runData.Report).toHaveLength(1);
		expect(result.output('Report').map((item) => item.json)).toEqual([
			{
				preview: false,
				customers: [
					{ customer: 'acme', action: 'added 1000 transactions', leftBefore: '50 of 1000' },
					{ customer: 'globex', action: 'plan set to 23', leftBefore: '80 of 1000' },
					{ customer: 'initech', action: 'none: not low', leftBefore: '500 of 1000' },
				],
				actedOn: 2,
			},
		]);
		expect(JSON.stringify(result.run)).not.toContain(ctx.emu.partner.masterToken);
	});

	it('with Preview on in its two writing nodes, as its note says for the first run: buys nothing, and Report says what would be done', async () => {
		await addUsers(ctx.emu, ['acme', 'globex', 'initech']);
		ctx.emu.setTransactionsUsed('acme', 950);
		ctx.emu.setTransactionsUsed('globex', 920);
		ctx.emu.setTransactionsUsed('initech', 500);
		const example = readExample(join(__dirname, '..', 'examples', 'usage-topup.workflow.json'));
		const workflow = {
			...example,
			nodes: example.nodes
				.filter((node) => node.type !== 'n8n-nodes-base.stickyNote')
				.map((node) =>
					['Set Plan', 'Add Transactions'].includes(node.name)
						? {
								...node,
								parameters: {
									...node.parameters,
									requestOptions: {
										...(node.parameters?.requestOptions as object),
										preview: true,
									},
								},
							}
						: node,
				),
		};
		const result = await runExample(workflow, [new AlbatoSolutions(), ...STAND_INS], {
			albatoPartnerApi: partnerCredential(ctx.emu),
		});
		const writes = ctx.emu.requests.filter((r) =>
			/add-user-plan-transactions|set-user-plan/.test(r.path),
		);
		expect(writes).toEqual([]);
		expect(result.output('Report').map((item) => item.json)).toEqual([
			{
				preview: true,
				customers: [
					{
						customer: 'acme',
						action: 'would be: added 1000 transactions',
						leftBefore: '50 of 1000',
					},
					{ customer: 'globex', action: 'would be: plan set to 23', leftBefore: '80 of 1000' },
					{ customer: 'initech', action: 'none: not low', leftBefore: '500 of 1000' },
				],
				actedOn: 2,
			},
		]);
	});

	it('uses only parameters the node has, in partner mode, with the confirmation on for the paid top-up', () => {
		const workflow = readExample(join(__dirname, '..', 'examples', 'usage-topup.workflow.json'));
		const known = new Set(new AlbatoSolutions().description.properties.map((p) => p.name));
		const albato = workflow.nodes.filter(
			(node) => node.type === 'n8n-nodes-albato-solutions.albatoSolutions',
		);
		expect(albato.map((node) => node.parameters?.operation)).toEqual([
			'get',
			'setPlan',
			'addTransactions',
		]);
		for (const node of albato) {
			expect(node.parameters?.authentication).toBe('partnerApi');
			for (const parameter of Object.keys(node.parameters ?? {}))
				expect([node.name, parameter, known.has(parameter)]).toEqual([node.name, parameter, true]);
		}
		expect(albato[2].parameters).toMatchObject({
			transactionCount: 1000,
			confirmAddTransactions: true,
		});
		expect(JSON.stringify(workflow)).not.toMatch(/eyJhbGci|masterToken/);
	});
});
