/**
 * The probe's billing part: list-plans by GET and POST with the master token, never
 * shown.
 */
import { startEmulator, type Emulator } from '../../emulator';
import { runProbe, formatReport } from '../../scripts/probe/index';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const probe = (masterToken?: string) =>
	runProbe({
		baseUrl: emu.baseUrl,
		token: emu.token(),
		partner: emu.partner.name,
		masterToken,
	});

describe('the probe reports the billing plans', () => {
	it.each(['both', 'get', 'post'] as const)('listPlansMethod %s', async (listPlansMethod) => {
		emu.setVariants({ listPlansMethod });
		const report = await probe(emu.partner.masterToken);
		expect(report.variants.listPlansMethod).toBe(listPlansMethod);
		expect(report.unknown).toEqual([]);
		expect(report.lines.join('\n')).toMatch(/plan keys: \{id, monthlyTrx\}; id number/);
		expect(report.lines.join('\n')).toMatch(
			/block-user-plan, add-user-plan-transactions: not probed/,
		);
	});

	it('reads only: no block or top-up call; the master token appears nowhere', async () => {
		const report = await probe(emu.partner.masterToken);
		const billing = emu.requests.filter((r) => r.path.startsWith('/wl/'));
		expect(
			billing.map((r) => `${r.method} ${r.path.split('/').pop()}`).filter((c) => /plan/.test(c)),
			// Three GETs first: the master token in each form (Bearer, Basic username, Basic token).
		).toEqual([
			'GET list-plans',
			'GET list-plans',
			'GET list-plans',
			'GET list-plans',
			'POST list-plans',
		]);
		const printed = formatReport(report, { probeVersion: 'test', node: 'test', date: 'test' });
		expect(printed + JSON.stringify(report)).not.toContain(emu.partner.masterToken);
		const encoded = Buffer.from(`${emu.partner.masterToken}:`).toString('base64');
		expect(printed + JSON.stringify(report)).not.toContain(encoded);
	});

	it('ids as strings are reported as such', async () => {
		emu.setVariants({ stringIds: true });
		const report = await probe(emu.partner.masterToken);
		expect(report.lines.join('\n')).toMatch(/id string/);
	});

	it('a refused master token is an unknown, not a crash', async () => {
		const report = await probe('not-the-master-token');
		expect(report.unknown.join('\n')).toMatch(/master token was refused/);
		expect(JSON.stringify(report)).not.toContain('not-the-master-token');
	});

	it('without a master token list-plans is not read', async () => {
		const report = await probe();
		expect(report.variants.listPlansMethod).toBeUndefined();
		expect(emu.requests.some((r) => /list-plans/.test(r.path))).toBe(false);
	});
});
