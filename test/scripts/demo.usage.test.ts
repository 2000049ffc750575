/** `npm run demo -- --strict-auth <unknown>`: the valid readings, no stack trace. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

describe('the demo with an unknown --strict-auth reading', () => {
	it('prints the valid readings without a stack trace, and exits 2 before starting anything', () => {
		const result = spawnSync(
			process.execPath,
			[
				require.resolve('ts-node/dist/bin.js'),
				'--transpile-only',
				'scripts/demo.ts',
				'--strict-auth',
				'noSuchReading',
			],
			{ cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
		);
		expect(result.status).toBe(2);
		expect(result.stderr.trim()).toBe(
			'--strict-auth: unknown reading "noSuchReading". Valid readings: lenient, noRawBasic, noBasicUsername, noBearerPermanent, panelToken, sessionToken (emulator/README.md, variant strictAuth).',
		);
		expect(result.stdout).toBe('');
	}, 60_000);
});
