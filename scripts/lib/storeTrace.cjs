// `--require`d by the benchmark's workers when BENCH_STORE_TRACE names a folder (scripts/bench-fleet.mjs):
// times each call of n8n's deduplication store (Run → Get New's gate) from inside the worker, and the
// worker's event-loop delay and garbage-collection pauses, one JSON line each into
// <folder>/store-<pid>.jsonl. A diagnostic of the benchmark, never loaded by the node.
//   call: t0 (asked), tRead (n8n's read of the list returned), tWrite (its write sent), tEnd (that
//         write done), items, fresh, n (records in the list read), gate (the items hold a gate
//         marker), exec (the execution, from the marker), first (the first item: whose keys);
//   loop: the longest event-loop delay of each 5 s;  gc: a pause over 50 ms.
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { AsyncLocalStorage } = require('node:async_hooks');
const { performance, monitorEventLoopDelay, PerformanceObserver } = require('node:perf_hooks');

const file = path.join(process.env.BENCH_STORE_TRACE, `store-${process.pid}.jsonl`);
const now = () => performance.timeOrigin + performance.now();
const write = (record) =>
	fs.appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...record })}\n`);
const current = new AsyncLocalStorage();

function trace(Helper) {
	if (Helper.traced) return;
	Helper.traced = true;
	const { checkProcessedAndRecord, findProcessedData } = Helper.prototype;
	Helper.prototype.findProcessedData = async function (...args) {
		const found = await findProcessedData.apply(this, args);
		const call = current.getStore();
		if (call) Object.assign(call, { tRead: now(), n: found?.value?.data?.length ?? 0 });
		return found;
	};
	Helper.prototype.checkProcessedAndRecord = async function (items, ...rest) {
		const call = { k: 'call', t0: now(), items: items.length };
		const marker = items.find((item) => String(item).startsWith('gate\n'));
		call.gate = marker !== undefined;
		if (marker) call.exec = String(marker).split('\n')[1];
		call.first = String(items.find((item) => item !== marker) ?? '').slice(0, 160);
		return await current.run(call, async () => {
			try {
				const answer = await checkProcessedAndRecord.call(this, items, ...rest);
				call.fresh = answer?.new?.length;
				return answer;
			} finally {
				call.tEnd = now();
				write(call);
			}
		});
	};
}

/** When n8n's write of the list is sent: what it writes is fixed then. */
function traceWrites(Repository) {
	if (Repository.traced) return;
	Repository.traced = true;
	const { update } = Repository.prototype;
	Repository.prototype.update = function (...args) {
		const call = current.getStore();
		if (call) call.tWrite = now();
		return update.apply(this, args);
	};
}

const load = Module._load;
Module._load = function (...args) {
	const exported = load.apply(this, args);
	if (exported?.DeduplicationHelper?.prototype?.checkProcessedAndRecord)
		trace(exported.DeduplicationHelper);
	if (exported?.ProcessedDataRepository?.prototype) traceWrites(exported.ProcessedDataRepository);
	return exported;
};

const delay = monitorEventLoopDelay({ resolution: 20 });
delay.enable();
setInterval(() => {
	write({ k: 'loop', t: now(), maxMs: delay.max / 1e6 });
	delay.reset();
}, 5000).unref();
new PerformanceObserver((list) => {
	for (const entry of list.getEntries())
		if (entry.duration > 50)
			write({ k: 'gc', t: performance.timeOrigin + entry.startTime, ms: entry.duration });
}).observe({ entryTypes: ['gc'] });
