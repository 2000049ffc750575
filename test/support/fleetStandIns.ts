/**
 * Small stand-ins for the n8n nodes examples/fleet-change.workflow.json and fleet-restore use, so
 * that n8n-core runs the examples' own graph (connections, positions, the v1 execution order) and
 * their expressions (`$('One item per customer').item`, `$execution.id`) with our node. n8n's own
 * nodes (n8n-nodes-base) are not installed here: each stand-in reads only the parameters the
 * examples set, in the modes they use. The real nodes run both examples in `npm run e2e:n8n`
 * (scripts/e2e/fleet.mjs).
 *
 * - Set (raw JSON), Split Out (no other fields, or all other fields with a destination field), No
 *   Operation.
 * - Data Table: one in-memory store (`tables`): Table → Create (Reuse Existing Tables), Row →
 *   Insert (Define Below: every column the table has, with its type, or it fails like n8n's), Row →
 *   Get ("equals" conditions, all of them; no condition: every row).
 * - Code (run once for all items): the example's JavaScript run as it is, its `$('…').all(output)`,
 *   `$('…').isExecuted` and `$execution.id` answered by n8n-core's expressions.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

type Run = (
	fn: IExecuteFunctions,
	items: INodeExecutionData[],
) => INodeExecutionData[][] | Promise<INodeExecutionData[][]>;

function standIn(
	name: string,
	version: number[],
	parameters: string[],
	run: Run,
	outputs = 1,
): INodeType {
	const description: INodeTypeDescription = {
		displayName: name,
		name,
		group: ['transform'],
		version,
		description: `Stand-in for ${name}`,
		defaults: { name },
		inputs: [NodeConnectionTypes.Main],
		outputs: Array.from({ length: outputs }, () => NodeConnectionTypes.Main),
		// Declared so that the Workflow keeps them; any value (a string, an object, a list).
		properties: parameters.map((parameter) => ({
			displayName: parameter,
			name: parameter,
			type: 'json',
			default: '',
		})),
	};
	return {
		description,
		async execute(this: IExecuteFunctions) {
			return await run(this, this.getInputData());
		},
	};
}

export interface Column {
	name: string;
	type: 'string' | 'number' | 'boolean' | 'date';
}

export interface Table {
	id: number;
	name: string;
	columns: Column[];
	rows: IDataObject[];
}

/** The Data Table stand-in's store, shared by every run that gets the same `tables`. */
export type Tables = Map<string, Table>;

const tableOf = (fn: IExecuteFunctions, tables: Tables, i: number) => {
	const locator = fn.getNodeParameter('dataTableId', i) as { mode: string; value: string };
	const table = tables.get(String(locator.value).toLowerCase());
	if (locator.mode !== 'name' || !table)
		throw new Error(`Data table with name "${locator.value}" not found`);
	return table;
};

function dataTable(tables: Tables): INodeType {
	return standIn(
		'n8n-nodes-base.dataTable',
		[1.1],
		[
			'resource',
			'operation',
			'tableName',
			'columns',
			'options',
			'dataTableId',
			'matchType',
			'filters',
			'returnAll',
		],
		(fn, items) => {
			// n8n's defaults when the workflow leaves them out: Row → Insert.
			const resource = (fn.getNodeParameter('resource', 0) as string) || 'row';
			const operation = (fn.getNodeParameter('operation', 0) as string) || 'insert';
			const out: INodeExecutionData[] = [];
			items.forEach((_item, i) => {
				if (resource === 'table' && operation === 'create') {
					const name = fn.getNodeParameter('tableName', i) as string;
					const reuse = (fn.getNodeParameter('options', i, {}) as IDataObject).createIfNotExists;
					let table = tables.get(name.toLowerCase());
					if (table && reuse !== true) throw new Error(`Data table "${name}" already exists`);
					if (!table) {
						const { column } = fn.getNodeParameter('columns', i) as { column: Column[] };
						table = { id: tables.size + 1, name, columns: column, rows: [] };
						tables.set(name.toLowerCase(), table);
					}
					out.push({ json: { id: table.id, name }, pairedItem: { item: i } });
				} else if (resource === 'row' && operation === 'insert') {
					const table = tableOf(fn, tables, i);
					const columns = fn.getNodeParameter('columns', i) as {
						mappingMode: string;
						value: IDataObject;
					};
					if (columns.mappingMode !== 'defineBelow') throw new Error('only Define Below');
					const names = table.columns.map((c) => c.name);
					const given = Object.keys(columns.value);
					if (given.some((name) => !names.includes(name)))
						throw new Error(`unknown column in ${given.join(', ')}`);
					for (const { name, type } of table.columns)
						if (columns.value[name] !== undefined && typeof columns.value[name] !== type)
							throw new Error(`column ${name}: ${typeof columns.value[name]}, not ${type}`);
					const row = {
						...columns.value,
						id: table.rows.length + 1,
						createdAt: new Date().toISOString(),
					};
					table.rows.push(row);
					out.push({ json: row, pairedItem: { item: i } });
				} else if (resource === 'row' && operation === 'get') {
					const table = tableOf(fn, tables, i);
					if (fn.getNodeParameter('matchType', i) !== 'allConditions')
						throw new Error('only All Conditions');
					// No conditions: every row (as n8n's).
					const { conditions = [] } = (fn.getNodeParameter('filters', i, {}) || {}) as {
						conditions?: Array<{ keyName: string; condition: string; keyValue: unknown }>;
					};
					if (conditions.some((c) => c.condition !== 'eq')) throw new Error('only equals');
					for (const row of table.rows)
						if (conditions.every((c) => String(row[c.keyName]) === String(c.keyValue)))
							out.push({ json: row, pairedItem: { item: i } });
				} else throw new Error(`Data Table stand-in: no ${resource} → ${operation}`);
			});
			return [out];
		},
	);
}

/** Stand-ins for every n8n node the two fleet examples run (not their trigger, not the notes). */
export function fleetStandIns(tables: Tables): INodeType[] {
	return [
		standIn('n8n-nodes-base.set', [3.4], ['mode', 'jsonOutput', 'options'], (fn, items) => {
			if (fn.getNodeParameter('mode', 0) !== 'raw') throw new Error('only raw JSON');
			return [
				items.map((_item, i) => ({
					json: JSON.parse(fn.getNodeParameter('jsonOutput', i) as string) as IDataObject,
					pairedItem: { item: i },
				})),
			];
		}),
		standIn(
			'n8n-nodes-base.splitOut',
			[1],
			['fieldToSplitOut', 'include', 'options'],
			(fn, items) => [
				items.flatMap((item, i) => {
					const field = fn.getNodeParameter('fieldToSplitOut', i) as string;
					const include = (fn.getNodeParameter('include', i) as string) || 'noOtherFields';
					const { destinationFieldName } = fn.getNodeParameter('options', i, {}) as IDataObject;
					const { [field]: list, ...others } = item.json;
					return (list as unknown[]).map((entry) => {
						// As n8n's: an object is spread only with No Other Fields and no destination.
						const json: IDataObject =
							include === 'noOtherFields' && !destinationFieldName
								? { ...(entry as IDataObject) }
								: { [String(destinationFieldName || field)]: entry as IDataObject[string] };
						return {
							json: include === 'allOtherFields' ? { ...others, ...json } : json,
							pairedItem: { item: i },
						};
					});
				}),
			],
		),
		standIn('n8n-nodes-base.noOp', [1], [], (_fn, items) => [
			items.map((item, i) => ({ json: item.json, pairedItem: { item: i } })),
		]),
		standIn('n8n-nodes-base.code', [2], ['jsCode'], (fn) => {
			// The example's JavaScript as plain JavaScript (as n8n's task runner runs it), with `$()`
			// and `$execution` answered by n8n-core's own expressions.
			const evaluate = (expression: string) => fn.evaluateExpression(`{{ ${expression} }}`, 0);
			const $ = (name: string) => ({
				all: (output = 0) => evaluate(`$(${JSON.stringify(name)}).all(${output})`),
				isExecuted: evaluate(`$(${JSON.stringify(name)}).isExecuted`),
			});
			const $execution = { id: evaluate('$execution.id') };
			const code = fn.getNodeParameter('jsCode', 0) as string;
			const run = new Function('$', '$execution', code) as (...args: unknown[]) => unknown;
			return [(run($, $execution) as INodeExecutionData[]).map((item) => ({ json: item.json }))];
		}),
		dataTable(tables),
	];
}
