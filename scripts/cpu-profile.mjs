// Where a process's CPU went, from the V8 CPU profiles Node writes with `--cpu-prof` (one file per
// process and thread): busy time (all but idle) per file and per package, and the busiest
// functions. Used for the workers of `bench:fleet`:
//
//   BENCH_WORKER_NODE_OPTIONS="--max-old-space-size=1024 --cpu-prof --cpu-prof-dir=/tmp/prof" \
//     npm run bench:fleet -- --customers 3000 --jobs fleetChange --single none --faults-at 0
//   node scripts/cpu-profile.mjs /tmp/prof [top]
//
// A profile is written when its process exits normally (not after a SIGKILL).

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, topArg] = process.argv.slice(2);
if (!dir) {
	console.error('usage: node scripts/cpu-profile.mjs <dir of .cpuprofile files> [top]');
	process.exit(2);
}
const TOP = Number(topArg ?? 12);
const seconds = (us) => `${(us / 1e6).toFixed(1)} s`;

/** The package a frame's script belongs to: node_modules/<name>, node:<module>, or V8's own. */
function packageOf({ url, functionName }) {
	if (!url) return functionName || '(native)';
	if (url.startsWith('node:')) return url.split('/')[0];
	const inModules = url.split('node_modules/').pop();
	if (inModules === url) return path.basename(url);
	const parts = inModules.split('/');
	return parts.slice(0, parts[0].startsWith('@') ? 2 : 1).join('/');
}

function summarize(file) {
	const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
	const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
	const byPackage = new Map();
	const byFunction = new Map();
	let busy = 0;
	profile.samples.forEach((id, index) => {
		const frame = frames.get(id);
		if (frame.functionName === '(idle)') return;
		const delta = profile.timeDeltas[index] ?? 0;
		busy += delta;
		const add = (map, key) => map.set(key, (map.get(key) ?? 0) + delta);
		add(byPackage, packageOf(frame));
		add(byFunction, `${frame.functionName || '(anonymous)'} (${packageOf(frame)})`);
	});
	return { busy, byPackage, byFunction };
}

const files = readdirSync(dir).filter((file) => file.endsWith('.cpuprofile'));
const all = { busy: 0, byPackage: new Map(), byFunction: new Map() };
for (const file of files.sort()) {
	const one = summarize(file);
	console.log(`${file}: busy ${seconds(one.busy)}`);
	all.busy += one.busy;
	for (const key of ['byPackage', 'byFunction'])
		for (const [name, us] of one[key]) all[key].set(name, (all[key].get(name) ?? 0) + us);
}
const top = (map) =>
	[...map]
		.sort((a, b) => b[1] - a[1])
		.slice(0, TOP)
		.map(
			([name, us]) =>
				`  ${seconds(us).padStart(9)} ${((100 * us) / all.busy).toFixed(1).padStart(5)}%  ${name}`,
		)
		.join('\n');
console.log(`\nbusy in all: ${seconds(all.busy)}\nby package:\n${top(all.byPackage)}`);
console.log(`busiest functions:\n${top(all.byFunction)}`);
