/** The onboarding example (the demo) runs end to end and leaves the service as the story says. */
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import { startEmulator, type Emulator } from '../emulator';
import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { readExample, runExample } from '../harness/examples';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

it('examples/customer-onboarding.workflow.json: the whole journey', async () => {
	const workflow = readExample(
		join(__dirname, '..', 'examples', 'customer-onboarding.workflow.json'),
	);
	const token = emu.token();
	const result = await runExample(workflow, [new AlbatoSolutions()], {
		albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: token },
	});
	expect(workflow.nodes.length).toBeGreaterThan(1);
	for (const node of workflow.nodes)
		expect([node.name, result.error(node.name)]).toEqual([node.name, undefined]);

	const installation = [...emu.state.installations.values()].find(
		(i) => i.title === 'Acme Corp – lead sync',
	)!;
	expect(installation.status).toBe(1);
	const subject = [...emu.state.bundleData.values()]
		.filter((record) => installation.bundleIds.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((field) => field.name === 'subject');
	expect(subject?.value).toBe('Welcome to Acme!');
	expect(result.output('Change email subject')[0].json).toMatchObject({
		updated: { subject: 'Welcome to Acme!' },
	});
	const connection = result.output('Create partner connection')[0].json;
	expect(connection).toMatchObject({ title: 'Acme CRM connection' });
	expect(JSON.stringify(connection)).not.toContain('sk_demo_0123456789abcdef');
	expect(emu.requests.map((r) => r.method)).toEqual(
		expect.arrayContaining(['GET', 'POST', 'PLAY', 'PAUSE', 'PUT']),
	);
	expect(JSON.stringify(result.run)).not.toContain(token);
});

// These two start from n8n's own nodes (Webhook, Schedule, Set, If), which only real n8n has:
// `npm run e2e:n8n` runs them there. Here: every Albato node is wired for partner mode, with
// parameters the node really has.
it.each([
	'new-customer-onboarding',
	'nightly-pause-resume',
	'connect-by-link',
	'fleet-fanout-batch',
])('examples/%s.workflow.json: every Albato node acts as an end user', (name) => {
	const workflow = readExample(join(__dirname, '..', 'examples', `${name}.workflow.json`));
	const known = new Set(
		new AlbatoSolutions().description.properties.map((property) => property.name),
	);
	const albato = workflow.nodes.filter(
		(node) => node.type === 'n8n-nodes-albato-solutions.albatoSolutions',
	);
	expect(albato.length).toBeGreaterThanOrEqual(2);
	for (const node of albato) {
		expect([
			node.name,
			node.parameters?.authentication,
			Object.keys(node.credentials ?? {}),
		]).toEqual([node.name, 'partnerApi', ['albatoPartnerApi']]);
		expect(node.parameters?.endUserId).toMatch(/^=\{\{ .+ \}\}$/);
		for (const parameter of Object.keys(node.parameters ?? {}))
			expect([node.name, parameter, known.has(parameter)]).toEqual([node.name, parameter, true]);
	}
	const targets = Object.values(workflow.connections).flatMap((connection) =>
		connection.main.flat().map((link) => link!.node),
	);
	const fed = workflow.nodes.filter((n) => !/Trigger|webhook|Run now/i.test(n.type + n.name));
	expect(fed.length).toBeGreaterThanOrEqual(albato.length);
	for (const node of fed) expect(targets).toContain(node.name);
});

describe('the fleet and usage examples open with a note for a new partner', () => {
	const noteOf = (file: string) =>
		readExample(join(__dirname, '..', 'examples', file))
			.nodes.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => String(node.parameters?.content ?? ''))
			.join('\n');

	it.each([
		[
			'fleet-change.workflow.json',
			[
				/Replace|Customers to change/,
				/Ensure new subject\*\* → \*Request Options\* → \*Add Option\* → \*Preview\*, and turn it on/,
			],
		],
		['fleet-restore.workflow.json', [/snapshots\.firstExecutionId/, /stops the run/]],
		[
			'fleet-upgrade.workflow.json',
			[
				/replace \*\*Customers to upgrade\*\*/,
				/Preview first/,
				/Canary Items\* 20/,
				/alreadyUpgraded/,
			],
		],
		[
			'fleet-rollback.workflow.json',
			[
				/replace \*\*Customers to roll back\*\*/,
				/Preview first/,
				/nothing is written the second time/,
			],
		],
		['fleet-watch.workflow.json', [/Replace \*\*Customers\*\*/, /\*\*Publish\*\*/]],
		[
			'usage-topup.workflow.json',
			[/Replace \*\*Customer list\*\*/, /\*\*Publish\*\*/, /every night they stay low/, /bills/],
		],
	])('%s', (file, says) => {
		const note = noteOf(file);
		for (const words of says) expect([file, words.test(note)]).toEqual([file, true]);
	});
});

// The fan-out's Code node (only real n8n runs the Code node; its script is plain JavaScript).
describe('examples/fleet-fanout.workflow.json: the batches', () => {
	const workflow = readExample(join(__dirname, '..', 'examples', 'fleet-fanout.workflow.json'));
	const code = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.code')!.parameters!
		.jsCode as string;
	const batchesOf = (items: Array<{ json: IDataObject }>) =>
		(new Function('$input', code) as (input: unknown) => Array<{ json: IDataObject }>)({
			all: () => items,
			first: () => items[0],
		});
	const customers = Array.from({ length: 1201 }, (_, n) => ({ customerId: `c${n}` }));

	it.each([
		['one item holding the list', [{ json: { customers } }]],
		['one item per customer (a database node)', customers.map((json) => ({ json }))],
	])('%s: batches of 500, every customer once, in order', (_name, items) => {
		const batches = batchesOf(items);
		expect(batches.map(({ json }) => [json.batch, (json.customers as unknown[]).length])).toEqual([
			[1, 500],
			[2, 500],
			[3, 201],
		]);
		expect(batches.flatMap(({ json }) => json.customers as unknown[])).toEqual(customers);
	});
});
