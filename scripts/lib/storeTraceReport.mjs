// What scripts/lib/storeTrace.cjs wrote, summed up for one stretch of time (a sweep): how long the
// workers' store calls held the list between its read and their write, how busy each worker was in
// them, and its event-loop delays and garbage-collection pauses.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const quantile = (values, q) => {
	const sorted = [...values].sort((a, b) => a - b);
	return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
};

export async function storeTraceReport(folder, fromMs, toMs) {
	const records = [];
	for (const name of (await readdir(folder)).filter((n) => n.endsWith('.jsonl')))
		for (const line of (await readFile(path.join(folder, name), 'utf8')).split('\n'))
			if (line) records.push(JSON.parse(line));
	const within = (t) => t >= fromMs && t <= toMs;
	const calls = records.filter((r) => r.k === 'call' && within(r.t0) && r.tRead);
	// A call holds the list from its read (just after it starts) to its write (at its end).
	const held = calls.map((c) => c.tEnd - c.t0);
	const busy = {};
	for (const c of calls) busy[c.pid] = (busy[c.pid] ?? 0) + (c.tEnd - c.t0);
	const loops = records.filter((r) => r.k === 'loop' && within(r.t)).map((r) => r.maxMs);
	const pauses = records.filter((r) => r.k === 'gc' && within(r.t)).map((r) => r.ms);
	return {
		storeCalls: calls.length,
		listRecordsMax: Math.max(0, ...calls.map((c) => c.n)),
		callMs: {
			p50: quantile(held, 0.5),
			p90: quantile(held, 0.9),
			p99: quantile(held, 0.99),
			max: quantile(held, 1),
		},
		workerShareInStoreCalls: Object.values(busy).map(
			(ms) => Math.round((100 * ms) / (toMs - fromMs)) / 100,
		),
		eventLoopDelayMaxMs: quantile(loops, 1),
		gcPausesOver50Ms: { count: pauses.length, maxMs: quantile(pauses, 1) },
	};
}
