/**
 * The read-only contract probe: calls only the service's GET endpoints with an end-user token and
 * tells, for each shape the spec leaves open, which variant the service uses (named as the emulator's
 * variants are, so a report maps straight onto `emu.setVariants(...)`), and anything it does not know.
 * Only keys and types are reported, never values, and the token never appears.
 */
import type { ErrorStyle, Variants } from '../../emulator/types';
import { unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import { authorizationIn, basicUsername } from '../../nodes/shared/readers/token';
import { probeConnections } from './connections';
import { getter, type Probe, type Say } from './context';
import { errorText, probeEnvelope, probeErrors } from './envelope';
import { probeForms } from './forms';
import { probeInstallations } from './installations';
import { probeLists } from './lists';
import { probePlans } from './plans';
import { probeRuns } from './runs';
import { probeSolution } from './solutions';

export interface ProbeOptions {
	baseUrl: string;
	token: string;
	/** A partner whose credential meta to read (GET /credentials/{id}/meta); skipped when absent. */
	partnerId?: number;
	/** A solution to read; default the first listed. */
	solutionId?: string;
	/** A sharing (connection by link) to read: GET /credentials/grant-access-sharing/{id}; skipped when absent. */
	linkId?: number;
	/** The {partner-name} whose own-connection GETs to read (get-own-credential-metadata, get-own-credential); skipped when absent. */
	partner?: string;
	/** The partner's master token: with `partner`, list-plans is read by GET and POST; skipped when absent. */
	masterToken?: string;
	fetchImpl?: typeof fetch;
}

export interface ProbeReport {
	baseUrl: string;
	/** The variants recognised, in the emulator's terms. */
	variants: Partial<Variants>;
	errorStyle?: ErrorStyle;
	/** One line per shape, human-readable. */
	lines: string[];
	/** Shapes not recognised, or not seen (e.g. no installations). */
	unknown: string[];
	calls: string[];
}

export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
	const base = options.baseUrl.replace(/\/+$/, '');
	const doFetch = options.fetchImpl ?? fetch;
	const report: ProbeReport = { baseUrl: base, variants: {}, lines: [], unknown: [], calls: [] };
	const { say, unknown } = reporters(report, [options.token, options.masterToken]);

	// 0. Which form each token is taken in: the reads below send the end-user token in that one.
	const { userForm, masterForm, strictAuth } = await probeForms(
		{ ...options, baseUrl: base, fetchImpl: doFetch, calls: report.calls },
		say,
		unknown,
	);
	if (strictAuth) report.variants.strictAuth = strictAuth;
	const authorization = authorizationIn(options.token, userForm);
	const get = getter(base, doFetch, authorization, report.calls);
	const probe: Probe = { get, say, unknown, variants: report.variants };

	// 1. Solutions: envelope, list wrapper, id type.
	const apps = await get('/solution/apps');
	if (apps.status !== 200) {
		unknown(
			'GET /solution/apps',
			`status ${apps.status}: ${String(errorText(apps.body)).slice(0, 200)}`,
		);
		return report;
	}
	probeEnvelope(probe, apps.body);
	const solutions = probeLists(probe, apps.body);
	// 2. Connection settings: values shape and where nested steps sit.
	await probeSolution(probe, options.solutionId ?? (solutions[0] && String(solutions[0].id)));
	// 3. Installations: list paging, items, detail, status, bundles, bundle data.
	await probeInstallations(probe, apps);
	// 4. Credential meta, the sharing and the own connection, when named.
	await probeConnections(probe, options);
	// 5. Error body style: a read of an installation that cannot exist.
	const style = await probeErrors(probe);
	if (style) report.errorStyle = style;
	// 6. Run history: steps as levels or flat, dates with or without a zone.
	await probeRuns(get, unwrapEnvelope, report.variants, say, unknown);
	// 7. Billing plans, with the master token and the partner name only.
	if (options.masterToken && options.partner !== undefined)
		await probePlans(
			{
				baseUrl: base,
				partner: options.partner,
				authorization: authorizationIn(options.masterToken, masterForm),
				fetchImpl: doFetch,
				calls: report.calls,
			},
			unwrapEnvelope,
			report.variants,
			say,
			unknown,
		);
	else say('billing plans', 'not read (set ALBATO_MASTER_TOKEN and pass --partner NAME)');
	return report;
}

/** The report's `say` and `unknown`, with every token taken out, also as Basic sends it (base64 of "<token>:"). */
function reporters(
	report: ProbeReport,
	tokens: Array<string | undefined>,
): { say: Say; unknown: Say } {
	const secrets = tokens
		.filter((secret): secret is string => Boolean(secret))
		.flatMap((secret) => [secret, basicUsername(secret)]);
	const redact = (text: string) =>
		secrets.reduce<string>((out, secret) => out.split(secret).join('[token]'), text);
	return {
		say: (shape, what) => report.lines.push(`${shape}: ${redact(what)}`),
		unknown: (shape, what) => report.unknown.push(`${shape}: ${redact(what)}`),
	};
}

/** The report as text to paste into a bug report. */
export function formatReport(
	report: ProbeReport,
	meta: { probeVersion: string; node: string; date: string },
): string {
	return [
		`Albato Solutions contract probe (n8n-nodes-albato-solutions ${meta.probeVersion}, Node ${meta.node}, ${meta.date})`,
		`Base URL: ${report.baseUrl}   Token: [redacted]`,
		'',
		'Shapes seen:',
		...report.lines.map((line) => `  ${line}`),
		'',
		report.unknown.length ? 'Unknown or not seen:' : 'Unknown or not seen: none',
		...report.unknown.map((line) => `  ${line}`),
		'',
		`As emulator variants: ${JSON.stringify(report.variants)}${report.errorStyle ? `   error style: ${report.errorStyle}` : ''}`,
		'',
		'Calls (all GET):',
		...report.calls.map((call) => `  ${call}`),
	].join('\n');
}
