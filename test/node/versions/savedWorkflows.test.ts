/**
 * Workflows saved at an earlier version of the node still run unchanged: each fixture is a workflow
 * as n8n stored it (only the parameters that differ from their defaults, typeVersion 1 or 2), run through
 * n8n-core against the emulator. Version 1 was saved under two sets of names (the first
 * descriptions', and the renamed ones, `*-renamed.json`): both give the same result. A fixture
 * without an expectation below fails the test.
 */
import { readdirSync } from 'fs';
import { join } from 'path';
import { NodeHelpers, type INode, type INodeParameters } from 'n8n-workflow';

import { readExample, runExample } from '../../../harness/examples';
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { NODE_VERSIONS } from '../../../nodes/shared/descriptions/versions';
import { useEmulator } from '../../support/setup';

const ctx = useEmulator();
const FIXTURES = join(__dirname, 'fixtures');
const NODE = 'Albato';

interface Expected {
	/** The requests the node makes, in order (method and path). */
	calls: string[];
	/** What the last request carried, when it has a body. */
	body?: Record<string, unknown>;
	/** Part of the first output item. */
	output?: Record<string, unknown>;
	/** How many items the node outputs. */
	items?: number;
}

const FIRST_NAMES: Record<string, Expected> = {
	// Version 1 named the connection `title` and took the fields as JSON.
	'credential-create-json.json': {
		calls: ['GET /credentials/201/meta', 'POST /credentials/201'],
		body: {
			apiUrl: 'https://crm.acme.example',
			apiKey: 'sk_demo_0123456789abcdef',
			region: 'eu',
			title: 'Acme CRM connection',
		},
		output: { title: 'Acme CRM connection', partnerId: 201 },
	},
	// Version 1's mapper was `fieldMapper` (Fields Input left at its default, Map Each Field).
	'credential-create-mapper.json': {
		calls: ['GET /credentials/201/meta', 'POST /credentials/201'],
		body: {
			apiUrl: 'https://crm.initech.example',
			apiKey: 'sk_live_0123456789abcdef',
			region: 'eu',
			title: 'Initech CRM',
		},
		output: { title: 'Initech CRM', partnerId: 201 },
	},
	// Version 1's Runs Of was `scope`: one automation reads the installation (for the automation's
	// and the steps' titles) and its runs.
	'run-getAll-oneAutomation.json': {
		calls: ['GET /solution/installation/5001', 'GET /bundle/events'],
		output: { bundleId: 7001, installationId: 5001 },
		items: 2,
	},
	// Version 1's Step ID was `stepId`.
	'run-getStep.json': {
		calls: ['GET /bundle/events/steps/3944029301'],
		output: { id: 3944029301 },
	},
	// The first descriptions had the solution filter as a text field, before it became a locator.
	'installation-getAll-solutionText.json': {
		calls: ['GET /solution/installation'],
		output: { solutionId: 101 },
	},
};

// Saved at version 1 with the names version 2 now has (`connectionName`, `connectionFieldMapper`,
// `runsOf`, `runStepId`): the same requests and output as under the first names.
const RENAMED: Record<string, Expected> = {
	'credential-create-json-renamed.json': FIRST_NAMES['credential-create-json.json'],
	'credential-create-mapper-renamed.json': FIRST_NAMES['credential-create-mapper.json'],
	'run-getAll-oneAutomation-renamed.json': FIRST_NAMES['run-getAll-oneAutomation.json'],
	'run-getStep-renamed.json': FIRST_NAMES['run-getStep.json'],
};

// Saved at version 2: Ensure's otherInstallations give their status as words, as then (version 3
// gives the number installation.status gives), and error items under "Continue (using error
// output)" keep `details` (test/node/errorOutputRouting.test.ts: which n8n routes them where).
/** An Ensure of "Leads for ACME" as it is: the list, then its detail twice. */
const ENSURE_UNCHANGED = [
	'GET /solution/installation',
	'GET /solution/installation/5001',
	'GET /solution/installation/5001',
];
const AT_VERSION_2: Record<string, Expected> = {
	'installation-ensure-others-v2.json': {
		calls: ENSURE_UNCHANGED,
		output: {
			unchanged: true,
			otherInstallations: [{ id: 5002, title: 'Leads for Globex', status: 'paused' }],
		},
	},
	'installation-get-errorOutput.json': {
		calls: ['GET /solution/installation/5001'],
		output: { id: 5001 },
	},
};

// Version 4 pauses Ensure's other active copies by default; version 3 leaves them running unless
// asked (the twins themselves: test/node/fleet/resume.test.ts). Here: a saved Ensure runs unchanged.
const AT_VERSION_3: Record<string, Expected> = {
	'installation-ensure-v3.json': {
		calls: ENSURE_UNCHANGED,
		output: {
			unchanged: true,
			otherInstallations: [{ id: 5002, title: 'Leads for Globex', status: 0 }],
		},
	},
};

// Version 5 sweeps Run → Get New by windows of time; a node saved at 4 keeps the memory of runs
// returned (its retired Max Remembered Runs in Total ignored): a manual run shows the runs at once.
const AT_VERSION_4: Record<string, Expected> = {
	'run-getNew-v4.json': {
		calls: ['GET /bundle/events'],
		output: { bundleId: 7001, installationId: 5001 },
		items: 2,
	},
};

const EXPECTED: Record<string, Expected> = {
	...FIRST_NAMES,
	...RENAMED,
	...AT_VERSION_2,
	...AT_VERSION_3,
	...AT_VERSION_4,
};

const fixtures = readdirSync(FIXTURES).filter((file) => file.endsWith('.json'));

describe('workflows saved at an earlier version run unchanged', () => {
	it('has a fixture for every earlier version, and an expectation for every fixture', () => {
		const versions = new Set(
			fixtures.flatMap((file) =>
				readExample(join(FIXTURES, file))
					.nodes.filter((node) => node.type.endsWith('.albatoSolutions'))
					.map((node) => node.typeVersion),
			),
		);
		expect([...versions].sort()).toEqual(NODE_VERSIONS.slice(0, -1));
		expect(fixtures.sort()).toEqual(Object.keys(EXPECTED).sort());
	});

	it.each(fixtures)('%s', async (file) => {
		const expected = EXPECTED[file];
		const workflow = readExample(join(FIXTURES, file));
		const before = ctx.emu.requests.length;
		const result = await runExample(workflow, [new AlbatoSolutions()], {
			albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token },
		});
		expect(result.error(NODE)).toBeUndefined();
		const requests = ctx.emu.requests.slice(before);
		expect(requests.map((entry) => `${entry.method} ${entry.path}`)).toEqual(expected.calls);
		if (expected.body) expect(requests.at(-1)?.body).toEqual(expected.body);
		const output = result.output(NODE);
		if (expected.items !== undefined) expect(output).toHaveLength(expected.items);
		expect(output.length).toBeGreaterThan(0);
		if (expected.output) expect(output[0].json).toMatchObject(expected.output);
	});

	// What n8n does with a saved workflow before it runs or activates it: it resolves the parameters
	// against the description (dropping those not shown for the node's version), then refuses a
	// node with issues (an empty required field). The editor shows each saved parameter in one field
	// (no two fields for one concept), and saving from the editor keeps them.
	it.each(fixtures)('%s: n8n keeps every saved parameter and finds no issue', (file) => {
		const node = readExample(join(FIXTURES, file)).nodes.find((n) => n.name === NODE) as INode;
		const saved = node.parameters;
		const resolved = resolve(node, saved, true);
		expect(resolved).toMatchObject(saved);
		const loaded = { ...node, parameters: resolved };
		expect(
			NodeHelpers.getNodeParametersIssues(description.properties, loaded, description),
		).toBeNull();
		const fields = description.properties
			.filter((property) => !['hidden', 'notice'].includes(property.type))
			.filter((property) => NodeHelpers.displayParameter(resolved, property, loaded, description));
		const labels = fields.map((property) => property.displayName);
		expect(labels).toEqual([...new Set(labels)]);
		const names = new Set(fields.map((property) => property.name));
		expect(Object.keys(saved).filter((name) => !names.has(name))).toEqual([]);
		expect(resolve(node, resolve(node, resolved, false), true)).toEqual(resolved);
	});

	it('a version 1 workflow that saved both names reads the first one', async () => {
		const workflow = readExample(join(FIXTURES, 'run-getStep.json'));
		const node = workflow.nodes.find((n) => n.name === NODE)!;
		node.parameters = { ...node.parameters, runStepId: '999' };
		const before = ctx.emu.requests.length;
		await runExample(workflow, [new AlbatoSolutions()], {
			albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token },
		});
		expect(ctx.emu.requests.slice(before).map((entry) => entry.path)).toEqual([
			'/bundle/events/steps/3944029301',
		]);
	});
});

const { description } = new AlbatoSolutions();

/** n8n's resolution of a node's parameters: with defaults (load, run), or without (editor save). */
function resolve(node: INode, parameters: INodeParameters, withDefaults: boolean) {
	return NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		withDefaults,
		false,
		node,
		description,
	)!;
}
