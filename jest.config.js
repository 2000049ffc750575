/** Unit tests and integration tests (n8n-core's engine against the emulator over loopback). */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false, tsconfig: '<rootDir>/test/tsconfig.json' }],
	},
	testTimeout: 30000,
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/setup-after-env.ts'],
	reporters: ['default', '<rootDir>/test/summary-reporter.js'],
};
