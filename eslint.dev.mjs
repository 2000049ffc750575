// Lint for what is never published: emulator/, harness/, scripts/ and test/. Each of those folders has an
// eslint.config.mjs that re-exports this. The published code (nodes/, credentials/, package.json)
// is linted by n8n's default config in the root eslint.config.mjs, unchanged, as `n8n-node lint`
// requires. `npm run lint` turns on ESLint's per-file config lookup (ESLint 10's default) so that
// each file gets the config of its own folder.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const unused = ['error', { argsIgnorePattern: '^_' }];

export default tseslint.config(
	{
		files: ['**/*.{js,mjs,cjs}'],
		extends: [js.configs.recommended],
		languageOptions: { globals: globals.node },
		rules: { 'no-unused-vars': unused },
	},
	{ files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } },
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
		rules: { '@typescript-eslint/no-unused-vars': unused },
	},
);
