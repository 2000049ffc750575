// @ts-check
import os from 'node:os';
import path from 'node:path';

/**
 * Mutation testing of the decision logic: `npm run mutate` (see CONTRIBUTING.md, "Mutation testing").
 * Jest runs the repository's own jest.config.js, minus the tests that load the built package (dist/),
 * which no mutant of the sources can change. The TypeScript checker drops mutants that do not compile.
 */

/**
 * What is mutated: the decision logic, and nothing else. The one place to edit when files move.
 * - the transport: client, retry, errors, the in-flight limiter;
 * - the partner token cache and end-user tokens;
 * - install safety; pause, update and restore;
 * - the trigger's poll;
 * - parameter checks and the service's shape readers (and paging).
 */
export const DECISION_LOGIC = [
	'nodes/shared/transport/*.ts',
	'nodes/shared/readers/{shapes,pagination,token,mintedToken}.ts',
	'nodes/AlbatoSolutions/actions/params.ts',
	'nodes/AlbatoSolutions/actions/installation/installSafely.ts',
	'nodes/AlbatoSolutions/actions/bundleData/pauseAndResume.ts',
	'nodes/AlbatoSolutionsTrigger/poll.ts',
];

/** Tests that need `npm run build` first (they load dist/): not run under Stryker. */
const NEEDS_DIST = ['<rootDir>/test/package/'];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
	packageManager: 'npm',
	testRunner: 'jest',
	jest: {
		projectType: 'custom',
		configFile: 'jest.config.js',
		config: { testPathIgnorePatterns: ['/node_modules/', ...NEEDS_DIST] },
		enableFindRelatedTests: false,
	},
	coverageAnalysis: 'perTest',
	checkers: ['typescript'],
	tsconfigFile: 'tsconfig.json',
	mutate: DECISION_LOGIC,
	reporters: ['clear-text', 'progress', 'html', 'json'],
	htmlReporter: { fileName: 'reports/mutation/mutation.html' },
	jsonReporter: { fileName: 'reports/mutation/mutation.json' },
	thresholds: { high: 90, low: 80, break: null },
	// The CPU is shared: raise with --concurrency on a machine of your own.
	concurrency: 2,
	timeoutMS: 10000,
	// Outside the repository, so that lint and format checks never walk a sandbox mid-run.
	tempDirName: path.join(os.tmpdir(), 'stryker-n8n-nodes-albato-solutions'),
	cleanTempDir: 'always',
};

export default config;
