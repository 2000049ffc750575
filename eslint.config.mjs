// n8n's official community-node rules on everything n8n loads (nodes, credentials, package.json),
// and typescript-eslint's recommended rules on all TypeScript (tests, emulator and scripts too).
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

const community = n8nCommunityNodesPlugin.configs.recommended;

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
	...tseslint.configs.recommended.map((config) => ({ ...config, files: ['**/*.ts'] })),
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts', 'package.json'],
		...community,
		languageOptions: { parser: tseslint.parser },
	},
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
);
