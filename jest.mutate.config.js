/**
 * Jest under Stryker (`npm run mutate`, stryker.config.mjs): the repository's jest.config.js with a
 * transpile-only transform (each file compiled alone, no type check: the TypeScript checker and
 * `npm test` do that) and no summary line. Which tests run is set per group in stryker.config.mjs.
 */
const base = require('./jest.config.js');

module.exports = {
	...base,
	transform: {
		'^.+\\.ts$': [
			'ts-jest',
			{ diagnostics: false, tsconfig: '<rootDir>/test/tsconfig.mutate.json' },
		],
	},
	reporters: ['default'],
};
