/**
 * `npm run demo`: starts the bundled emulator, runs examples/customer-onboarding.workflow.json through
 * n8n's execution engine (n8n-core) with the BUILT node from dist/, and prints what each step returned
 * and what was asked of the service.
 */
import '../harness/n8nUserFolder';

import { join } from 'path';

import { startEmulator } from '../emulator';
import { releaseN8nResources } from '../harness';
import { readExample, runExample } from '../harness/examples';

// The package as n8n loads it (npm run demo builds first).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { AlbatoSolutions } = require('../dist/nodes/AlbatoSolutions/AlbatoSolutions.node.js');

const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
const dim = (text: string) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);

/** One line per item, with the fields that tell the story. */
function summarize(json: Record<string, unknown>): string {
	const pick = [
		'id',
		'title',
		'status',
		'version',
		'complete',
		'bundleId',
		'bundleTitle',
		'partnerId',
		'installationStatus',
		'error',
	];
	const parts = pick
		.filter((key) => json[key] !== undefined)
		.map((key) => `${key}=${JSON.stringify(json[key])}`);
	if (Array.isArray(json.data)) {
		parts.push(
			`fields: ${(json.data as Array<{ name: string; value: unknown }>).map((f) => `${f.name}=${JSON.stringify(f.value)}`).join(', ')}`,
		);
	}
	if (json.updated) parts.push(`updated=${JSON.stringify(json.updated)}`);
	if (json.credentialData) parts.push(`credentialData=${JSON.stringify(json.credentialData)}`);
	if (Array.isArray(json.fields))
		parts.push(`fields: ${(json.fields as Array<{ id: string }>).map((f) => f.id).join(', ')}`);
	if (json.values) parts.push(`values=${JSON.stringify(json.values)}`);
	return parts.join('  ') || JSON.stringify(json).slice(0, 160);
}

async function main() {
	const emu = await startEmulator({ port: 0 });
	const file = join(__dirname, '..', 'examples', 'customer-onboarding.workflow.json');
	const workflow = readExample(file);
	console.log(bold(`${workflow.name}`));
	console.log(dim(`emulator at ${emu.baseUrl}, workflow ${file}\n`));

	const result = await runExample(workflow, [new AlbatoSolutions()], {
		albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() },
	});

	let failed = false;
	for (const node of workflow.nodes) {
		const error = result.error(node.name);
		const items = result.output(node.name);
		console.log(
			bold(`▶ ${node.name}`) +
				dim(
					`  (${String(node.parameters?.resource ?? 'trigger')} → ${String(node.parameters?.operation ?? 'start')})`,
				),
		);
		if (error) {
			failed = true;
			console.log(`  ✗ ${error.message}${error.description ? ` — ${error.description}` : ''}`);
			continue;
		}
		for (const item of items.slice(0, 6)) console.log(`  • ${summarize(item.json)}`);
		if (items.length > 6) console.log(dim(`  … and ${items.length - 6} more`));
	}

	console.log(bold(`\nWhat the service was asked (${emu.requests.length} calls)`));
	for (const request of emu.requests) {
		const query = request.rawQuery ? `?${decodeURIComponent(request.rawQuery)}` : '';
		console.log(
			`  ${request.method.padEnd(5)} ${request.path}${query} ${dim(`→ ${request.status}`)}`,
		);
	}
	await emu.close();
	releaseN8nResources();
	if (failed) process.exitCode = 1;
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
