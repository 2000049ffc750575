/** The bench's results printed: the per-item table, CPU, the bulk update, the heap and the targets. */
import path from 'path';

import type { Bulk } from './bulk';
import { IN_FLIGHT, round, RTTS } from './options';
import type { Figures } from './perItem';
import type { Memory } from './usage';

export interface Measured {
	perItemMs: Record<string, Record<string, Figures>>;
	cpuMsPerCall: { helper: number; node: number };
	bulk: Bulk;
	memory: Memory;
}

export type Targets = Record<string, { target: string; value: number | string; met: boolean }>;

export function printResults(measured: Measured, targets: Targets, out: string): void {
	const { perItemMs, cpuMsPerCall, bulk, memory } = measured;
	console.log('\nms per item (median), 200 Installation → Get over HTTPS:');
	const header = ['RTT', 'client', ...IN_FLIGHT.map((c) => `${c} in flight`), 'default'];
	const rows = RTTS.flatMap((rtt) =>
		['ideal', 'helper', 'node'].map((client) => [
			`${rtt} ms`,
			client,
			...IN_FLIGHT.map((c) => String(perItemMs[rtt][client][c])),
			String(perItemMs[rtt][client].default ?? ''),
		]),
	);
	printTable([header, ...rows]);
	console.log(`\nCPU per call: helper ${cpuMsPerCall.helper} ms, node ${cpuMsPerCall.node} ms`);
	console.log(
		`bulk update at 150 ms: ${bulk.calls} calls (${Object.entries(bulk.callsByMethod)
			.map(([m, c]) => `${c} ${m}`)
			.join(
				' + ',
			)}), minimum ${bulk.minimumCalls}, ${round(bulk.seconds)} s; all active again ${bulk.allActive}, all applied ${bulk.allApplied}`,
	);
	console.log(`heap retained after GC, ${memory.items} items: ${round(memory.node)} MB`);
	console.log('\ntargets:');
	for (const [name, t] of Object.entries(targets))
		console.log(`  ${name}: ${t.value} (target ${t.target}) ${t.met ? 'met' : 'NOT met'}`);
	console.log(`\nfigures written to ${path.relative(process.cwd(), out) || out}`);
}

function printTable(rows: string[][]): void {
	const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
	const line = (row: string[]) => `| ${row.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
	console.log(line(rows[0]));
	console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
	for (const row of rows.slice(1)) console.log(line(row));
}
