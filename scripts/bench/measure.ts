/**
 * The measuring child (`--measure`), and the memory child (`--memory-child N`): warm up, the
 * per-item figures and CPU, the bulk update, the heap in a fresh process, then the results against
 * their targets, written as JSON to `--out` and printed.
 */
import { writeFileSync } from 'fs';
import { cpus } from 'os';
import path from 'path';

import { bulkUpdate } from './bulk';
import { control, controlAgent, helperGets, idealGets, type Service } from './http';
import { defaultItemsInFlight, harness, nodeGets } from './node';
import { arg, DIST, num, ROOT, round } from './options';
import { perItem, type Runs, type Sizes } from './perItem';
import { printResults, type Measured, type Targets } from './report';
import { memoryChild, runMemoryChild } from './usage';

interface Settings extends Sizes {
	memoryItems: number;
	out: string;
}

export async function measure(): Promise<void> {
	// n8n-core sets the TLS servername to the host, here 127.0.0.1 (Node warns: RFC 6066); harmless on loopback.
	process.noDeprecation = true;
	const service: Service = {
		direct: process.env.BENCH_EMULATOR!,
		token: process.env.BENCH_TOKEN!,
		proxies: JSON.parse(process.env.BENCH_PROXIES!) as Record<string, string>,
	};
	if (process.argv.includes('--memory-child')) {
		const result = await memoryChild(service, Number(arg('--memory-child')));
		console.log(`MEMORY ${JSON.stringify(result)}`);
		harness().releaseN8nResources();
		controlAgent.destroy();
		return;
	}
	const settings = settingsOf();
	const defaults = defaultItemsInFlight();
	const began = Date.now();
	console.log(
		`node ${process.version}; ${cpus().length} CPUs; build ${path.relative(ROOT, DIST) || DIST}; ${settings.items} items per measure (${settings.serialItems} at 1 in flight), median of ${settings.repeat}; node default Items in Flight ${defaults}\n`,
	);
	try {
		await warmUp(service);
		const { runs, perItemMs, cpuMsPerCall } = await perItem(service, settings, began);
		const bulk = await bulkUpdate(
			service,
			150,
			num('--changes', 200),
			Math.max(1, num('--installations', 20)),
		);
		await control(service, 'DELETE', '/requests');
		const memory = await runMemoryChild(settings.memoryItems);
		const measured: Measured = { perItemMs, cpuMsPerCall, bulk, memory };
		const targets = targetsOf(measured);
		const results = resultsOf(measured, targets, runs, { ...settings, defaults, began });
		writeFileSync(settings.out, JSON.stringify(results, null, 2) + '\n');
		printResults(measured, targets, settings.out);
	} finally {
		controlAgent.destroy();
		harness().releaseN8nResources();
	}
}

function settingsOf(): Settings {
	return {
		repeat: Math.max(1, num('--repeat', 3)),
		items: Math.max(1, num('--items', 200)),
		serialItems: Math.max(1, num('--serial-items', 10)),
		memoryItems: num('--memory-items', 10_000),
		cpuCalls: Math.max(1, num('--cpu-calls', 300)),
		out: path.resolve(arg('--out') ?? 'bench-results.json'),
	};
}

/** JIT, n8n-core's lazy singletons; not measured. */
async function warmUp(service: Service): Promise<void> {
	await idealGets(service.direct, service.token, 50, 4);
	await helperGets(service.direct, service.token, 50, 4);
	await nodeGets(service.direct, service.token, 50, 4);
	await control(service, 'DELETE', '/requests');
}

function targetsOf({ perItemMs, cpuMsPerCall, bulk, memory }: Measured): Targets {
	const at150 = perItemMs[150];
	return {
		defaultVsOneInFlightAt150: {
			target: '≥ 6',
			value: round(at150.node['1'] / at150.node.default),
			met: at150.node['1'] / at150.node.default >= 6,
		},
		nodeVsHelperAt32At150: {
			target: '≤ 1.25',
			value: round(at150.node['32'] / at150.helper['32']),
			met: at150.node['32'] / at150.helper['32'] <= 1.25,
		},
		cpuNodeVsHelper: {
			target: '≤ 1.3',
			value: round(cpuMsPerCall.node / cpuMsPerCall.helper),
			met: cpuMsPerCall.node / cpuMsPerCall.helper <= 1.3,
		},
		bulkUpdate: {
			target: 'minimum calls, ≤ 20 s',
			value: `${bulk.calls}/${bulk.minimumCalls} calls, ${round(bulk.seconds)} s`,
			met:
				bulk.calls === bulk.minimumCalls && bulk.seconds <= 20 && bulk.allActive && bulk.allApplied,
		},
		heapRetainedMB: { target: '≤ 10', value: round(memory.node), met: memory.node <= 10 },
	};
}

/** The JSON written to `--out`. */
function resultsOf(
	{ perItemMs, cpuMsPerCall, bulk, memory }: Measured,
	targets: Targets,
	runs: Runs,
	run: Settings & { defaults: number; began: number },
) {
	return {
		perItemMs,
		cpuMsPerCall,
		bulkUpdate: { ...bulk, seconds: round(bulk.seconds) },
		heapRetainedMB: { items: memory.items, node: round(memory.node) },
		defaultItemsInFlight: run.defaults,
		targets,
		runs,
		setup: {
			node: process.version,
			cpus: cpus().length,
			build: DIST,
			items: run.items,
			serialItems: run.serialItems,
			repeat: run.repeat,
			cpuCalls: run.cpuCalls,
			date: new Date().toISOString(),
			benchSeconds: Math.round((Date.now() - run.began) / 1000),
		},
	};
}
