/**
 * Two projects. `unit`: tests that never load n8n-core (readers, transport pieces, the emulator over
 * HTTP, the description): no harness setup, and n8n-core cannot be loaded there by mistake. `n8n-core`:
 * every other test, which runs the node in n8n-core's engine against the emulator over loopback. A
 * new test file lands in `n8n-core` unless UNIT names it.
 *
 * Workers: four on any machine. Most tests wait on loopback HTTP, real backoff and the gate's waits
 * rather than the CPU: the whole suite on this 2-core machine took 216 s with 2 workers (jest's
 * '100%'), 154 s with 3 and 125 s with 4, the CPU at most 1.2 cores busy. `--maxWorkers` overrides
 * it.
 */
const path = require('node:path');

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const TEST_DIR = escape(path.join(__dirname, 'test') + path.sep);

/** Test files that load no n8n-core, as regular expressions on the path inside test/. */
const UNIT = [
	'emulator/(auth|billing|bundles|connections|control|credentials|faults|httpsAndRateLimit)',
	'emulator/(installations|listLag|noImportCircle|partner|runs|solutions|styles-variants)',
	'emulator/userLifecycle',
	'docs/(issueNumbers|links|readmeOperations|tables)',
	'readers/[^/]+',
	'layering',
	'node/endUser/endUserItem',
	'node/installation/(ensure\\.description|mapValues)',
	'node/params\\.kit',
	'node/run/(windowTicks|windowAnswer)',
	'node/requestOptions',
	'node/structure',
	'node/structure/layout',
	'node/structure/limits',
	'node/structure/limits\\.periphery',
	'node/withSentence',
	'scripts/(probe|probe\\.billing)',
	'transport/(answers|baseUrl|baseUrl\\.edges|credentials|endUserId|errors)',
	'transport/(limiter|limiter\\.edges|limiter\\.shared|pages\\.exchange|retry\\.edges)',
	'transport/(serviceMessage|serviceMessage\\.edges|tokenCache|wire)',
	'trigger/(description|installationEvents|usageLimit)',
].map((file) => `^${TEST_DIR}${file.replace(/\//g, escape(path.sep))}\\.test\\.ts$`);

const common = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
};

module.exports = {
	testTimeout: 30000,
	maxWorkers: 4,
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
	projects: [
		{
			...common,
			displayName: 'unit',
			testRegex: UNIT,
			moduleNameMapper: { '^n8n-core($|/)': '<rootDir>/test/support/noN8nCore.js' },
		},
		{
			...common,
			displayName: 'n8n-core',
			testMatch: ['**/*.test.ts'],
			testPathIgnorePatterns: ['/node_modules/', ...UNIT],
			setupFiles: ['<rootDir>/test/setup-env.ts'],
			setupFilesAfterEnv: ['<rootDir>/test/setup-after-env.ts'],
		},
	],
};
