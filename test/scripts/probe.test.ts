/**
 * The contract probe against the emulator: it must name the variant the service uses for every
 * shape.
 */
import { ERROR_STYLES, startEmulator, type Emulator, type Variants } from '../../emulator';
import { VARIANT_CHOICES } from '../../emulator/render';
import { parseArgs } from '../../scripts/probe';
import { formatReport, runProbe } from '../../scripts/probe/index';
import { call } from '../emulator/helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const probe = () => runProbe({ baseUrl: emu.baseUrl, token: emu.token(), partnerId: 201 });

/** The variants the probe can see with read calls only (Credential Create's body is a write). */
const READABLE: Array<keyof Variants> = [
	'bare',
	'successFlag',
	'stringIds',
	'wrapLists',
	'listShape',
	'valuesShape',
	'nestedUnder',
	'bundleDataShape',
	'fieldsShape',
	'statusShape',
	'detailWithoutStatus',
	'listWithoutStatus',
	'installationWrapper',
	'metaRequired',
	'metaExtraTypes',
	'pagination',
	'runSteps',
	'runStatuses',
];

describe('the probe reports each variant', () => {
	it('the defaults, with no unknowns and only GET calls', async () => {
		const report = await probe();
		expect(report.unknown).toEqual([]);
		expect(report.variants).toEqual({
			bare: false,
			successFlag: 'boolean',
			stringIds: false,
			wrapLists: false,
			listShape: 'list',
			valuesShape: 'valueTitle',
			nestedUnder: 'step',
			listWithoutStatus: false,
			installationWrapper: false,
			detailWithoutStatus: false,
			statusShape: 'number',
			bundleDataShape: 'list',
			fieldsShape: 'list',
			metaRequired: true,
			metaExtraTypes: false,
			pagination: 'none',
			runSteps: 'levels',
			runStatuses: 'codes',
			runDates: 'utc',
		});
		expect(report.errorStyle).toBe('errors');
		expect(emu.requests.length).toBeGreaterThan(0);
		expect(emu.requests.every((r) => r.method === 'GET')).toBe(true);
	});

	const cases = READABLE.flatMap((key) =>
		(VARIANT_CHOICES[key] as unknown[]).slice(1).map((value) => [key, value] as const),
	);
	it.each(cases)('%s = %p', async (key, value) => {
		emu.setVariants({ [key]: value } as Partial<Variants>);
		const report = await probe();
		expect(report.variants[key]).toEqual(value);
		expect(report.unknown).toEqual([]);
	});

	it('run dates: ISO with a zone', async () => {
		emu.setVariants({ runDates: 'iso' });
		expect((await probe()).variants.runDates).toBe('iso');
	});

	it('plain-string values', async () => {
		emu.setVariants({ plainValues: true });
		expect((await probe()).variants.plainValues).toBe(true);
	});

	it('many at once', async () => {
		const set: Partial<Variants> = {
			bare: true,
			stringIds: true,
			wrapLists: true,
			valuesShape: 'idValue',
			nestedUnder: 'value',
			bundleDataShape: 'map',
			fieldsShape: 'map',
			statusShape: 'word',
			installationWrapper: true,
		};
		emu.setVariants(set);
		expect((await probe()).variants).toMatchObject(set);
	});

	it.each(ERROR_STYLES)('error style %s', async (style) => {
		emu.setErrorStyle(style);
		// Yii's bare array is only for field errors; a 404 is {name, message, code, status}: both are
		// "yii".
		expect((await probe()).errorStyle).toBe(style);
	});
});

describe('the report', () => {
	it('never holds the token, and says what it could not see', async () => {
		const token = emu.token();
		emu.removeInstallation(5001);
		emu.removeInstallation(5002);
		const report = await runProbe({ baseUrl: emu.baseUrl, token });
		const text = formatReport(report, { probeVersion: '0.1.0', node: 'v20', date: 'now' });
		expect(text).not.toContain(token);
		expect(text).toContain('Token: [redacted]');
		expect(report.unknown.join('\n')).toMatch(/installations: none for this end user/);
		expect(text).toMatch(/credential meta: not read/);
	});

	it("an expired token: the service's refusal is reported, not thrown", async () => {
		const report = await runProbe({ baseUrl: emu.baseUrl, token: emu.token({ exp: 1 }) });
		expect(report.unknown[0]).toMatch(/end-user token \(a JWT\) forms: none taken: Bearer 401/);
		expect(report.unknown[1]).toMatch(/GET \/solution\/apps: status 401: Token expired/);
	});
});

describe('the token forms', () => {
	const PERMANENT = 'perm_probeFormsUser1Token0123456789abcdef';
	const withMaster = (token = emu.token()) =>
		runProbe({
			baseUrl: emu.baseUrl,
			token,
			partner: emu.partner.name,
			masterToken: emu.partner.masterToken,
		});
	beforeEach(() => emu.state.permanentTokens.set(PERMANENT, 'user-1'));

	it('reports the form each token is taken in, and no token in any form', async () => {
		const report = await withMaster(PERMANENT);
		const text = formatReport(report, { probeVersion: '0', node: 'v20', date: 'now' });
		expect(report.lines).toContain(
			'end-user token (not a JWT: a permanent token) forms: Bearer 200; Basic username (token + empty password) 200; Basic token (Basic <token>) 200',
		);
		expect(report.lines.join('\n')).toMatch(
			/master token forms: Bearer 401; Basic username .* 200; Basic token .* 200/,
		);
		for (const secret of [PERMANENT, emu.partner.masterToken]) {
			expect(text).not.toContain(secret);
			expect(text).not.toContain(Buffer.from(`${secret}:`).toString('base64'));
		}
		expect(emu.requests.every((r) => r.method === 'GET' || r.path.endsWith('/list-plans'))).toBe(
			true,
		);
	});

	it.each([
		['noRawBasic', PERMANENT],
		['noBasicUsername', PERMANENT],
		['noBearerPermanent', PERMANENT],
	] as const)(
		'names the strict reading %s, and reads the rest in the form taken',
		async (strict, token) => {
			emu.setVariants({ strictAuth: strict });
			const report = await withMaster(token);
			expect(report.variants.strictAuth).toBe(strict);
			expect(report.unknown).toEqual([]);
		},
	);
});

describe('arguments', () => {
	it('refuses a token given as an argument, and checks the base URL', () => {
		expect(() => parseArgs(['--base-url', 'https://api.albato.com', '--token', 'x'])).toThrow(
			/ALBATO_TOKEN/,
		);
		expect(() => parseArgs(['--access-token=x'])).toThrow(/ALBATO_TOKEN/);
		expect(() => parseArgs(['--base-url', 'api.albato.com'])).toThrow(/http/);
		expect(parseArgs(['--base-url=https://api.albato.com', '--partner-id', '201'])).toEqual({
			baseUrl: 'https://api.albato.com',
			partnerId: 201,
			solutionId: undefined,
		});
	});
});

describe('issue 21 GET endpoints', () => {
	it('reports the sharing and the own connection shapes, read-only', async () => {
		await call(emu, 'POST', '/credentials/grant-access-sharing', {
			body: { partnerId: 201, title: 'Probe link' },
		});
		emu.ownCredentials.add('user-1', { userId: 7, secretKey: 'abcdef123456' });
		emu.setVariants({ linkDateCreated: 'null' });
		const before = emu.requests.length;
		const report = await runProbe({
			baseUrl: emu.baseUrl,
			token: emu.token(),
			linkId: 301,
			partner: emu.partner.name,
		});
		expect(report.unknown).toEqual([]);
		expect(report.variants.linkDateCreated).toBe('null');
		expect(report.lines.join('\n')).toMatch(/sharing: \{id, partnerId, token, status/);
		expect(report.lines.join('\n')).toMatch(/own connection metadata: fields \{id, type, label/);
		expect(report.lines.join('\n')).toMatch(
			/own connection: keys \{title, userId, secretKey, webhookUrl\}/,
		);
		expect(report.lines.join('\n')).not.toContain('abcdef123456');
		expect(emu.requests.slice(before).every((r) => r.method === 'GET')).toBe(true);
		expect(
			parseArgs(['--base-url', 'http://x', '--link-id', '61', '--partner', 'acme']),
		).toMatchObject({
			linkId: 61,
			partner: 'acme',
		});
	});
});
