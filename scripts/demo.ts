/**
 * `npm run demo`: starts the bundled emulator, runs examples/customer-onboarding.workflow.json through
 * n8n's execution engine (n8n-core) with the BUILT node from dist/, and prints what each step returned
 * and what was asked of the service.
 *
 * `npm run demo -- --strict-auth <reading>` (or DEMO_STRICT_AUTH=<reading>): the emulator in one of
 * its strict readings of how Albato takes a token (emulator/README.md, variant `strictAuth`), the
 * credentials on their defaults (Auto). The readings of the token forms run the journey with a
 * permanent Access Token (a JWT would go as Bearer and meet none of them); every reading then runs
 * the partner steps: End User → Create, Solution → Check Connection (which prints the forms the
 * service took), Credential → Create Link and Refresh User Data (the call the panelToken and
 * sessionToken readings are about).
 */
import '../harness/n8nUserFolder';

import { join } from 'path';

import { startEmulator, type Emulator } from '../emulator';
import type { StrictAuth, Variants } from '../emulator/types';
import { releaseN8nResources } from '../harness';
import { type ExampleWorkflow, readExample, runExample } from '../harness/examples';

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
		'endUserId',
		'created',
		'connected',
		'masterToken',
		'endUserToken',
		'endUserTokenKind',
		'updateStatusName',
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

/** Each strict reading, with the tokens that make it meaningful (the service's partnerTokens). */
const READINGS: Record<StrictAuth, Variants['partnerTokens']> = {
	lenient: 'both',
	noRawBasic: 'permanent',
	noBasicUsername: 'permanent',
	noBearerPermanent: 'permanent',
	panelToken: 'both',
	sessionToken: 'both',
};

/** A permanent token of the fixtures' user-1, opaque as /wl hands them out (demo only). */
const PERMANENT = 'perm_demoStrictReadingUser1Token';

/** A mistake on the command line: its message is all the user needs (no stack trace). */
class UsageError extends Error {}

/** `--strict-auth <reading>`, `--strict-auth=<reading>` or DEMO_STRICT_AUTH; undefined: none. */
function strictReading(): StrictAuth | undefined {
	const args = process.argv.slice(2);
	const at = args.findIndex((arg) => arg === '--strict-auth' || arg.startsWith('--strict-auth='));
	const value =
		at < 0
			? process.env.DEMO_STRICT_AUTH || undefined
			: args[at].includes('=')
				? args[at].split('=')[1]
				: args[at + 1];
	if (value === undefined) return undefined;
	if (!(value in READINGS))
		throw new UsageError(
			`--strict-auth: unknown reading "${value}". Valid readings: ${Object.keys(READINGS).join(', ')} (emulator/README.md, variant strictAuth).`,
		);
	return value as StrictAuth;
}

/** Prints each node's items (or its error); returns whether one failed. */
function report(workflow: ExampleWorkflow, result: Awaited<ReturnType<typeof runExample>>) {
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
	return failed;
}

/** A one-node-after-another workflow of this node in partner mode, from a Manual Trigger. */
function partnerWorkflow(name: string, steps: Array<[string, Record<string, unknown>]>) {
	const trigger = { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1 };
	const nodes = [
		{ ...trigger, parameters: {}, position: [0, 0] },
		...steps.map(([stepName, parameters], i) => ({
			name: stepName,
			type: 'n8n-nodes-albato-solutions.albatoSolutions',
			typeVersion: 3,
			position: [220 * (i + 1), 0],
			parameters: { authentication: 'partnerApi', endUserId: 'demo-customer', ...parameters },
			credentials: { albatoPartnerApi: { id: '2', name: 'Albato Partner (emulator)' } },
		})),
	];
	const names = nodes.map((node) => node.name);
	const connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((from, i) => [from, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return { name, nodes, connections } as unknown as ExampleWorkflow;
}

/**
 * The partner's first minutes on default credentials (Auto): a customer, Check Connection (the
 * forms the service took), a connection made by link and refreshed through update-user-data.
 */
async function partnerSteps(emu: Emulator): Promise<boolean> {
	const credentials = {
		albatoPartnerApi: {
			baseUrl: emu.baseUrl,
			partnerName: emu.partner.name,
			masterToken: emu.partner.masterToken,
		},
	};
	const first = partnerWorkflow('Partner mode: a customer, its connection checked, a link', [
		[
			'Create end user',
			{ resource: 'endUser', operation: 'create', options: { ifExists: 'useExisting' } },
		],
		['Check connection', { resource: 'solution', operation: 'checkConnection' }],
		[
			'Create link',
			{
				resource: 'credential',
				operation: 'createLink',
				linkPartnerId: 201,
				linkTitle: 'Demo CRM',
			},
		],
	]);
	console.log(bold(`\n${first.name}`));
	const made = await runExample(first, [new AlbatoSolutions()], credentials);
	if (report(first, made)) return true;
	const forms = made.output('Check connection')[0]?.json ?? {};
	console.log(
		`  forms the service took: master token as ${String(forms.masterToken)}; ${String(forms.endUserTokenKind)} as ${String(forms.endUserToken)}`,
	);
	// The customer opens the link and connects (the emulator stands in for Albato's page).
	const connection = emu.links.complete(made.output('Create link')[0].json.sharingId as number);
	const second = partnerWorkflow('Partner mode: the connection refreshed (update-user-data)', [
		[
			'Refresh user data',
			{
				resource: 'credential',
				operation: 'refreshUserData',
				connectionPartnerId: 201,
				connectionId: connection.id,
			},
		],
	]);
	console.log(bold(`\n${second.name}`));
	return report(second, await runExample(second, [new AlbatoSolutions()], credentials));
}

async function main() {
	const strict = strictReading();
	const emu = await startEmulator({ port: 0 });
	const file = join(__dirname, '..', 'examples', 'customer-onboarding.workflow.json');
	const workflow = readExample(file);
	let accessToken = emu.token();
	if (strict) {
		emu.setVariants({ strictAuth: strict, partnerTokens: READINGS[strict] });
		if (READINGS[strict] === 'permanent') {
			emu.state.permanentTokens.set(PERMANENT, 'user-1');
			accessToken = PERMANENT;
		}
	}
	console.log(bold(`${workflow.name}`));
	console.log(dim(`emulator at ${emu.baseUrl}, workflow ${file}`));
	if (strict)
		console.log(
			dim(
				`strict reading ${strict} (the service hands out ${READINGS[strict]} tokens); Access Token: ${accessToken === PERMANENT ? 'a permanent token' : 'a session token (JWT)'}; credentials on Auto`,
			),
		);
	console.log('');

	const result = await runExample(workflow, [new AlbatoSolutions()], {
		albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken },
	});

	let failed = report(workflow, result);
	if (strict && (await partnerSteps(emu))) failed = true;

	console.log(bold(`\nWhat the service was asked (${emu.requests.length} calls)`));
	for (const request of emu.requests) {
		const query = request.rawQuery ? `?${decodeURIComponent(request.rawQuery)}` : '';
		const auth = strict && request.auth ? dim(` [${request.auth}]`) : '';
		console.log(
			`  ${request.method.padEnd(5)} ${request.path}${query} ${dim(`→ ${request.status}`)}${auth}`,
		);
	}
	await emu.close();
	releaseN8nResources();
	if (failed) process.exitCode = 1;
}

main().catch((error) => {
	if (error instanceof UsageError) {
		console.error(error.message);
		process.exit(2);
	}
	console.error(error);
	process.exit(1);
});
