/**
 * Jest under Stryker (`npm run mutate`, stryker.config.mjs): the repository's jest.config.js as one
 * flat config (its n8n-core project's setup; Stryker picks the tests per group, so the split into
 * projects does not apply) with a transpile-only transform (each file compiled alone, no type check:
 * the TypeScript checker and `npm test` do that) and no summary line.
 */
const { projects, ...base } = require('./jest.config.js');

// The split's own settings go: Stryker sets testMatch and testPathIgnorePatterns per group.
const SPLIT = ['displayName', 'testMatch', 'testPathIgnorePatterns'];
const withN8nCore = Object.fromEntries(
	Object.entries(projects.find((project) => project.displayName === 'n8n-core')).filter(
		([key]) => !SPLIT.includes(key),
	),
);

module.exports = {
	...base,
	...withN8nCore,
	transform: {
		'^.+\\.ts$': [
			'ts-jest',
			{ diagnostics: false, tsconfig: '<rootDir>/test/tsconfig.mutate.json' },
		],
	},
	reporters: ['default'],
};
