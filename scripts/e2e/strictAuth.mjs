// The emulator's strict readings of how a token is taken, in real n8n (called from run.mjs while
// `n8n start` is running; or alone: `npm run build && node scripts/e2e/strictAuth.mjs`):
//
//  1. a permanent end-user token (add-user), both credentials on their defaults (Send Token As,
//     Send Master Token As and Send End-User Tokens As: Auto), and a workflow: Solution → Check
//     Connection with the Access Token credential, End User → Create and Check Connection in partner
//     mode, imported through n8n's CLI
//  2. for each reading of the token forms (noRawBasic, noBasicUsername, noBearerPermanent; the
//     service hands out permanent tokens), switched through the emulator's control endpoint:
//     - n8n's REST credential test of both credentials (the nodes' `testedBy` functions, which try
//       the forms Auto tries): OK under every reading, each naming the form the service took
//     - `n8n execute` of the workflow (a new process: nothing learnt): every node succeeds, Check
//       Connection names the form the service took for each token, at most one 401 per kind of
//       token (the discovery), and no token in the run
// The readings of update-user-data (panelToken, sessionToken) concern a call this workflow does not
// make: `npm run demo -- --strict-auth <reading>` and test/node/strictAuth.test.ts run it under them.

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { holdsToken } from './partner.mjs';

const PARTNER = {
	id: 'AlbatoStrictPtnr',
	name: 'Albato Partner (strict)',
	type: 'albatoPartnerApi',
};
const ACCESS = {
	id: 'AlbatoStrictAccs',
	name: 'Albato Access (strict)',
	type: 'albatoSolutionsApi',
};
const WORKFLOW_ID = 'AlbatoStrictAuth';
const CUSTOMER = 'e2e-strict-customer';

const BASIC_USERNAME = 'Basic username (token + empty password)';
const BASIC_TOKEN = 'Basic token (Basic <token>)';

/** Each reading, and the form Check Connection must report for each token. */
const READINGS = [
	{
		strictAuth: 'noRawBasic',
		firstFormTaken: true,
		forms: {
			masterToken: BASIC_USERNAME,
			endUserToken: BASIC_USERNAME,
			accessToken: BASIC_USERNAME,
		},
	},
	{
		strictAuth: 'noBasicUsername',
		firstFormTaken: false,
		forms: { masterToken: BASIC_TOKEN, endUserToken: 'Bearer', accessToken: 'Bearer' },
	},
	{
		strictAuth: 'noBearerPermanent',
		firstFormTaken: true,
		forms: {
			masterToken: BASIC_USERNAME,
			endUserToken: BASIC_USERNAME,
			accessToken: BASIC_USERNAME,
		},
	},
];

const albato = (name, position, parameters, credentials) => ({
	name,
	type: 'n8n-nodes-albato-solutions.albatoSolutions',
	typeVersion: 3,
	position,
	parameters,
	credentials,
});

/** Manual Trigger → Check (Access Token) → Create end user → Check (partner). */
function workflow() {
	const access = { albatoSolutionsApi: { id: ACCESS.id, name: ACCESS.name } };
	const partner = { albatoPartnerApi: { id: PARTNER.id, name: PARTNER.name } };
	const nodes = [
		{
			name: 'Run',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		albato(
			'Check (Access Token)',
			[220, 0],
			{ resource: 'solution', operation: 'checkConnection' },
			access,
		),
		albato(
			'Create end user',
			[440, 0],
			{
				authentication: 'partnerApi',
				resource: 'endUser',
				operation: 'create',
				endUserId: CUSTOMER,
				options: { ifExists: 'useExisting' },
			},
			partner,
		),
		albato(
			'Check (partner)',
			[660, 0],
			{
				authentication: 'partnerApi',
				resource: 'solution',
				operation: 'checkConnection',
				endUserId: CUSTOMER,
			},
			partner,
		),
	];
	const names = nodes.map((node) => node.name);
	const connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((from, i) => [from, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);
	return { id: WORKFLOW_ID, name: 'Strict readings: Check Connection', nodes, connections };
}

const outputOf = (runData, nodeName) =>
	(runData[nodeName]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);

/** n8n's REST credential test of a saved credential, as the editor's Test button sends it. */
async function credentialTest(n8n, credential) {
	return await n8n.rest('POST', '/credentials/test', { credentials: credential });
}

/** n8n's credential test (the nodes' testedBy: the forms Auto tries) under one reading. */
async function checkCredentialTests(
	{ checks, n8n, partner, permanentToken },
	reading,
	credentials,
) {
	const { strictAuth } = reading;
	const secrets = [partner.masterToken, permanentToken];
	const tests = [];
	for (const credential of credentials) tests.push(await credentialTest(n8n, credential));
	const [access, master] = tests;
	const said = JSON.stringify(tests);
	checks.ok(
		`${strictAuth}: the credential tests say no token`,
		!secrets.some((s) => said.includes(s)),
	);
	checks.equal(
		`${strictAuth}: REST credential test of both credentials → OK`,
		tests.map((t) => t.status),
		['OK', 'OK'],
	);
	const first = reading.firstFormTaken;
	checks.ok(
		`${strictAuth}: the Partner API test names the form the service took`,
		master.message.includes(`as ${first ? 'Basic Username' : 'Basic Token'}`),
		master.message,
	);
	checks.ok(
		`${strictAuth}: the Access Token test names the form the service took`,
		access.message.includes(`as ${first ? 'Basic Username' : 'Bearer'}`),
		access.message,
	);
}

/** Check Connection in a workflow, a new n8n process, under one reading. */
async function checkConnectionRun({ checks, n8n, emulator, partner, permanentToken }, reading) {
	const { strictAuth } = reading;
	await emulator.control('DELETE', '/requests');
	const executed = await checks.step(
		`${strictAuth}: n8n execute runs the Check Connection workflow`,
		async () => {
			const result = await n8n.execute(WORKFLOW_ID);
			if (!n8n.succeeded(result))
				throw new Error(`exit ${result.code}\n${result.output.slice(-2000)}`);
			return result;
		},
	);
	const runData = executed.run.data.resultData.runData;
	const [viaAccess] = outputOf(runData, 'Check (Access Token)');
	const [viaPartner] = outputOf(runData, 'Check (partner)');
	checks.equal(
		`${strictAuth}: Check Connection names the form each token was taken in`,
		{
			masterToken: viaPartner?.masterToken,
			endUserToken: viaPartner?.endUserToken,
			accessToken: viaAccess?.accessToken,
		},
		reading.forms,
	);
	checks.equal(
		`${strictAuth}: … and the kinds of token (permanent, as the service hands them out)`,
		[viaAccess?.accessTokenKind, viaPartner?.endUserTokenKind],
		['permanent token', 'permanent token'],
	);
	const requests = await emulator.requests();
	const refused = requests.filter((r) => r.status === 401);
	// Auto's discovery: one refused request per kind of token whose first form is refused.
	const expected401 = reading.firstFormTaken ? 0 : 3;
	checks.equal(
		`${strictAuth}: ${expected401} refused request(s) in the run (one per kind of token found out), then none`,
		refused.length,
		expected401,
	);
	checks.ok(
		`${strictAuth}: no token in the stored run`,
		!holdsToken(JSON.stringify(executed.run), partner.masterToken) &&
			!JSON.stringify(executed.run).includes(permanentToken),
	);
}

export async function checkStrictAuth(checks, n8n, emulator) {
	await emulator.reset();
	const partner = await emulator.control('GET', '/partner');
	// The partner's backend asks a permanent token for a customer (the master token in the form the
	// lenient default takes): the Access Token credential holds it.
	const permanentToken = await checks.step('a permanent end-user token from add-user', async () => {
		await emulator.control('POST', '/variants', { partnerTokens: 'permanent' });
		const answer = await fetch(`${emulator.baseUrl}/wl/${partner.name}/add-user`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${partner.masterToken}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ id: 'e2e-strict-access' }),
		});
		const token = (await answer.json()).data?.permanentToken;
		if (answer.status !== 200 || typeof token !== 'string')
			throw new Error(`add-user answered ${answer.status} without a permanent token`);
		return token;
	});
	// Saved with only the required fields: every Send … As option on its default (Auto).
	const credentials = [
		{ ...ACCESS, data: { baseUrl: emulator.baseUrl, accessToken: permanentToken } },
		{
			...PARTNER,
			data: {
				baseUrl: emulator.baseUrl,
				partnerName: partner.name,
				masterToken: partner.masterToken,
			},
		},
	];
	await checks.step(
		'import both credentials (defaults: Auto) and the Check Connection workflow',
		async () => {
			await n8n.importCredentials(credentials);
			await n8n.importWorkflow(workflow());
		},
	);
	try {
		for (const reading of READINGS) {
			const { strictAuth } = reading;
			await emulator.control('POST', '/variants', { strictAuth, partnerTokens: 'permanent' });

			const run = { checks, n8n, emulator, partner, permanentToken };
			await checkCredentialTests(run, reading, credentials);
			await checkConnectionRun(run, reading);
		}
	} finally {
		await emulator.reset();
	}
}

// Alone: its own emulator and n8n (`npm run build` first).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const { Checks } = await import('./lib/checks.mjs');
	const { Emulator } = await import('./lib/emulator.mjs');
	const { ensureN8n } = await import('./lib/install.mjs');
	const { N8nInstance } = await import('./lib/n8n.mjs');
	const { killAll } = await import('./lib/proc.mjs');
	const { rm } = await import('node:fs/promises');
	const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
	const checks = new Checks();
	let n8n;
	let emulator;
	try {
		const install = await ensureN8n();
		emulator = await Emulator.start(repoRoot);
		n8n = await N8nInstance.create(install, repoRoot);
		await n8n.start();
		await n8n.loginOwner();
		await checks.group('Strict readings: credential test and Check Connection', () =>
			checkStrictAuth(checks, n8n, emulator),
		);
	} catch (error) {
		checks.ok('strict readings run', false, error instanceof Error ? error.stack : String(error));
	} finally {
		if (n8n?.server && checks.failed) console.log(`\nn8n server log: ${n8n.logFile}`);
		await n8n?.stop();
		await emulator?.close();
		await killAll();
		if (n8n && !checks.failed) await rm(n8n.userFolder, { recursive: true, force: true });
	}
	console.log(`\n${checks.summary()}`);
	process.exitCode = checks.failed ? 1 : 0;
}
