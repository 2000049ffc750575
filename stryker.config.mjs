// @ts-check
import os from 'node:os';
import path from 'node:path';

/**
 * Mutation testing of the decision logic: `npm run mutate` (see contributing/mutation.md).
 * Jest runs the repository's own jest.config.js, minus the tests that load the built package (dist/),
 * which no mutant of the sources can change. The TypeScript checker drops mutants that do not compile.
 */

/**
 * What is mutated: the decision logic, and nothing else. The one place to edit when files move.
 * - the transport: client, retry, errors, the in-flight limiter;
 * - the partner token cache and end-user tokens;
 * - install safety; pause, update and restore;
 * - the trigger's poll;
 * - parameter checks and the service's shape readers (and paging);
 * - watching a fleet: Get New's gate, incidents, plan usage, the Transactions Running Low event;
 * - Get New's sweep windows (node version 5): ticks, claims, reads and answers.
 */
export const DECISION_LOGIC = [
	'nodes/shared/transport/*.ts',
	'nodes/shared/readers/{shapes,pagination,token,mintedToken,countOrPercent,runs}.ts',
	'nodes/AlbatoSolutions/actions/params.ts',
	'nodes/AlbatoSolutions/actions/safeInstall/installSafely.ts',
	'nodes/AlbatoSolutions/actions/pausedUpdate/*.ts',
	'nodes/AlbatoSolutionsTrigger/{poll,installationPoll}.ts',
	'nodes/AlbatoSolutions/actions/run/gate.ts',
	'nodes/shared/readers/{incidents,plans}.ts',
	'nodes/AlbatoSolutionsTrigger/usagePoll.ts',
	'nodes/AlbatoSolutions/actions/run/window/{ticks,claims,windowRead,windowSweep,windowAnswer}.ts',
];

/** Tests that need `npm run build` first (they load dist/): not run under Stryker. */
const NEEDS_DIST = ['<rootDir>/test/package/'];

/** The unit tests of pure code (they never start n8n-core or the emulator). */
const UNIT_TESTS = [
	'<rootDir>/test/readers/**/*.test.ts',
	'<rootDir>/test/transport/{baseUrl,baseUrl.edges,endUserId,limiter,limiter.edges,limiter.shared,retry.edges,serviceMessage,serviceMessage.edges,tokenCache}.test.ts',
];

/**
 * The campaign in groups, each its own npm script (`npm run mutate:<group>`): the files it mutates
 * and the tests it runs. A group runs fewer tests than the whole suite, so its score can only be
 * lower than the whole suite's, never higher. `all` mutates everything with every test (days on 2 cores).
 */
export const GROUPS = {
	// Pure readers and the pure transport parts, against the unit tests: seconds per mutant.
	readers: { mutate: [DECISION_LOGIC[1]], tests: UNIT_TESTS, unit: true },
	transport: {
		mutate: [
			'nodes/shared/transport/{retry,limiter,concurrency,tokenCache,serviceMessage,baseUrl,partnerIds}.ts',
		],
		tests: UNIT_TESTS,
		unit: true,
	},
	// Decision code that needs n8n-core and the emulator: the integration tests written for it.
	install: {
		mutate: [DECISION_LOGIC[3]],
		tests: ['<rootDir>/test/node/installation/**/*.test.ts'],
	},
	// The parameter checks: the integration tests of bad input, through every operation that reads them.
	params: {
		mutate: [DECISION_LOGIC[2]],
		tests: [
			'<rootDir>/test/node/{params,params.keys,params.edges}.test.ts',
			'<rootDir>/test/node/{installation,bundleData}/**/*.test.ts',
		],
	},
	poll: {
		mutate: [DECISION_LOGIC[5]],
		tests: ['<rootDir>/test/trigger/**/*.test.ts'],
	},
	// Pause, update and restore: the Bundle Data tests (Update and its pause-and-resume run).
	update: {
		mutate: [DECISION_LOGIC[4]],
		tests: ['<rootDir>/test/node/bundleData/**/*.test.ts'],
	},
	// The transport beyond its pure parts: its own integration tests, through n8n-core and the emulator.
	wire: {
		mutate: [
			'nodes/shared/transport/{client,exchange,sender,signer,tokenForms,preview,answers,errors,pages,wire,callOptions,accessToken,partnerCredential,partnerSession,settings,mapLimited,endUserId}.ts',
		],
		tests: [
			'<rootDir>/test/transport/**/*.test.ts',
			'<rootDir>/test/node/{emptyAnswers,requestOptions}.test.ts',
			// The owed call a Stop still sends (sender.ts, partnerSession.ts): Update's pause and restart.
			'<rootDir>/test/node/bundleData/update.cancelled.test.ts',
		],
	},
	// Watching a fleet: Get New's gate in n8n's store, incidents, plan usage and its trigger event.
	watch: {
		mutate: DECISION_LOGIC.slice(6, 9),
		tests: [
			'<rootDir>/test/readers/{incidents,plans}.test.ts',
			'<rootDir>/test/node/run/getNew.{memory,incidents}.test.ts',
			'<rootDir>/test/node/endUser/get.planUsage.test.ts',
			'<rootDir>/test/trigger/{transactionsRunningLow,usageLimit,automationEvents}.test.ts',
		],
	},
	// Get New's sweep windows (node version 5): their own group, since their n8n-core tests are long.
	window: {
		mutate: [DECISION_LOGIC[9]],
		tests: [
			'<rootDir>/test/node/run/{windowTicks,windowAnswer}.test.ts',
			'<rootDir>/test/node/run/{getNew.windows,getNew.windows.manual,getNew.windows.scope,getNew.windows.pages,windowClaims,getNew.badInput}.test.ts',
		],
	},
	all: { mutate: DECISION_LOGIC, tests: ['<rootDir>/test/**/*.test.ts'] },
};

const groupName = process.env.MUTATE_GROUP || 'all';
const group = GROUPS[/** @type {keyof typeof GROUPS} */ (groupName)];
if (!group)
	throw new Error(`MUTATE_GROUP: no group "${groupName}" (${Object.keys(GROUPS).join(', ')})`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'jest.mutate.config.js',
		config: {
			testMatch: group.tests,
			testPathIgnorePatterns: ['/node_modules/', ...NEEDS_DIST],
			// Unit tests never start n8n-core: skip the harness that releases it (loading it costs
			// about 2 s per test run, i.e. per mutant).
			...('unit' in group ? { setupFilesAfterEnv: [] } : {}),
		},
		enableFindRelatedTests: false,
	},
	coverageAnalysis: 'perTest',
	// Mutants in module-level constants run every test: skipped (reported as ignored, not counted).
	ignoreStatic: true,
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	mutate: group.mutate,
	// Each group keeps its own record: a rerun tests only mutants whose code or tests changed.
	incremental: true,
	incrementalFile: `reports/stryker-incremental/${groupName}.json`,
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: `reports/mutation/${groupName}.html` },
	jsonReporter: { fileName: `reports/mutation/${groupName}.json` },
	thresholds: { high: 90, low: 80, break: null },
	// The CPU is shared: raise with --concurrency on a machine of your own.
	concurrency: 1,
	// Beyond the dry run's time for the test: the integration tests wait on real HTTP and backoff.
	timeoutMS: 15000,
	// Outside the repository, so that lint and format checks never walk a sandbox mid-run.
	tempDirName: path.join(os.tmpdir(), `stryker-n8n-nodes-albato-solutions-${groupName}`),
	cleanTempDir: 'always',
};

export default config;
