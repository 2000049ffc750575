/**
 * What the node costs the process: CPU ms per call (loopback, no delay), and the heap retained
 * after GC for many items, measured in a fresh process so earlier runs' heap does not hide the growth.
 */
import { spawn } from 'child_process';
import v8 from 'v8';
import vm from 'vm';

import { helperGets, type Service } from './http';
import { getItems, getParameters, nodeGets, runNode } from './node';
import { DIST, ENTRY } from './options';

export interface Memory {
	items: number;
	node: number;
}

const gc = (() => {
	v8.setFlagsFromString('--expose-gc');
	return vm.runInNewContext('gc') as () => void;
})();

export async function cpuPerCall(
	service: Service,
	calls: number,
	kind: 'helper' | 'node',
): Promise<number> {
	gc(); // earlier runs' garbage is not this measure's
	const before = process.cpuUsage();
	if (kind === 'helper') await helperGets(service.direct, service.token, calls, 1);
	else await nodeGets(service.direct, service.token, calls, 1);
	const used = process.cpuUsage(before);
	return (used.user + used.system) / 1000 / calls;
}

/** In the memory child: the heap `items` items retain, the run's output still referenced. */
export async function memoryChild(service: Service, items: number) {
	const baseUrl = process.env.BENCH_EMULATOR_PLAIN!;
	await nodeGets(baseUrl, service.token, 200); // warm-up: JIT, n8n-core's lazy singletons
	gc();
	const baseline = process.memoryUsage().heapUsed;
	const kept = await runNode(baseUrl, service.token, getParameters(), getItems(items));
	if (kept.length !== items) throw new Error(`expected ${items} items, got ${kept.length}`);
	gc();
	// With the run's output still referenced: what the items cost after the run.
	return {
		items,
		node: (process.memoryUsage().heapUsed - baseline) / 1024 / 1024,
		keptItems: kept.length,
	};
}

export function runMemoryChild(items: number): Promise<Memory> {
	const child = spawn(
		process.execPath,
		[
			'-r',
			'ts-node/register/transpile-only',
			ENTRY,
			'--memory-child',
			String(items),
			'--dist',
			DIST,
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	return new Promise((resolve, reject) => {
		let out = '';
		child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
		child.on('exit', (code) => {
			const line = out.split('\n').find((l) => l.startsWith('MEMORY '));
			if (code !== 0 || !line) reject(new Error(`memory child exited with ${code}: ${out}`));
			else resolve(JSON.parse(line.slice('MEMORY '.length)) as Memory);
		});
	});
}
