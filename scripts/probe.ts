/**
 * npm run probe -- --base-url https://api.albato.com [--partner-id 201] [--solution-id 101] [--link-id 61] [--partner partner-name]
 *
 * Read-only: only GET calls. The end user's token comes from the ALBATO_TOKEN environment variable,
 * never from an argument (arguments land in shell history and process lists). Prints a report to
 * paste into a bug report; the token never appears in it.
 */
import { formatReport, runProbe } from './probe/index';

const USAGE =
	'Usage: ALBATO_TOKEN=<end-user JWT> [ALBATO_MASTER_TOKEN=<partner master token>] npm run probe -- --base-url https://api.albato.com [--partner-id N] [--solution-id N] [--link-id N] [--partner NAME]';

/** `--name value` or `--name=value` flags, by name; a token, a bare word or an unknown flag throws. */
function flagsOf(argv: string[]): Record<string, string> {
	const args: Record<string, string> = {};
	for (let i = 0; i < argv.length; i++) {
		const [flag, inline] = argv[i].split('=', 2);
		if (/token/i.test(flag))
			throw new Error(
				'Give the token in the ALBATO_TOKEN environment variable, not as an argument',
			);
		if (!flag.startsWith('--')) throw new Error(`Unexpected argument "${flag}". ${USAGE}`);
		args[flag.slice(2)] = inline ?? argv[++i] ?? '';
	}
	for (const name of Object.keys(args))
		if (!['base-url', 'partner-id', 'solution-id', 'link-id', 'partner'].includes(name))
			throw new Error(`Unknown option --${name}. ${USAGE}`);
	return args;
}

/** A flag's value as a positive whole number (undefined when the flag is not given). */
function positiveWhole(value: string | undefined, flag: string): number | undefined {
	if (value === undefined) return undefined;
	const n = Number(value);
	if (!(Number.isInteger(n) && n > 0)) throw new Error(`${flag} must be a positive whole number`);
	return n;
}

export function parseArgs(argv: string[]): {
	baseUrl: string;
	partnerId?: number;
	solutionId?: string;
	linkId?: number;
	partner?: string;
} {
	const args = flagsOf(argv);
	const baseUrl = (args['base-url'] ?? '').trim();
	if (!/^https?:\/\/[^/]/i.test(baseUrl))
		throw new Error(`--base-url must be an http(s) address. ${USAGE}`);
	const partnerId = positiveWhole(args['partner-id'], '--partner-id');
	const linkId = positiveWhole(args['link-id'], '--link-id');
	const partner = args.partner === undefined ? undefined : args.partner.trim();
	if (partner !== undefined && !/^[\w.-]+$/.test(partner))
		throw new Error('--partner must be the partner name of the /wl paths');
	return { baseUrl, partnerId, solutionId: args['solution-id'], linkId, partner };
}

async function main() {
	let options: ReturnType<typeof parseArgs>;
	try {
		options = parseArgs(process.argv.slice(2));
	} catch (error) {
		console.error((error as Error).message);
		process.exit(2);
	}
	const token = (process.env.ALBATO_TOKEN ?? '').trim();
	if (!token) {
		console.error(`ALBATO_TOKEN is not set. ${USAGE}`);
		process.exit(2);
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { version } = require('../package.json') as { version: string };
	try {
		// Optional: the partner's master token, for list-plans; never printed.
		const masterToken = (process.env.ALBATO_MASTER_TOKEN ?? '').trim() || undefined;
		const report = await runProbe({ ...options, token, masterToken });
		console.log(
			formatReport(report, {
				probeVersion: version,
				node: process.version,
				date: new Date().toISOString(),
			}),
		);
	} catch (error) {
		console.error(
			`Probe failed: ${String((error as Error).message)
				.split(token)
				.join('[token]')
				.split((process.env.ALBATO_MASTER_TOKEN ?? '').trim() || token)
				.join('[token]')}`,
		);
		process.exit(1);
	}
}

if (require.main === module) void main();
