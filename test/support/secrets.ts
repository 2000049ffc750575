/**
 * Shared pieces of the "no secret leaks" tests: the emulator's fault kinds as one table, a console
 * capture, and the partner-mode secret check.
 */
import type { Emulator, FaultRule } from '../../emulator';

/**
 * The request options of the fault tests: one retry, no retry budget, and a 1 s timeout. A tighter
 * timeout fails on a loaded machine before the emulator has even read the request (it runs in the
 * test's own process); the timeout fault waits 1.5 s, so it still times out.
 */
export const FAULT_REQUEST_OPTIONS = { maxRetries: 1, retryBudget: 0, timeout: 1 } as const;

/** Every fault kind of the emulator, by name; a test picks its own selection with `faultKinds`. */
export const FAULT_KINDS: ReadonlyArray<[string, Omit<FaultRule, 'path'>]> = [
	['400', { status: 400 }],
	['401', { status: 401 }],
	['404', { status: 404 }],
	['429', { status: 429, retryAfterSeconds: 0 }],
	['500', { status: 500 }],
	['503', { status: 503 }],
	['reset before', { reset: 'before' }],
	['reset after', { reset: 'after' }],
	['timeout', { delayMs: 1500 }],
	['malformed JSON', { malformedJson: true }],
	['malformed JSON on a 400', { malformedJson: true, status: 400 }],
	['empty body', { emptyBody: true }],
	['success: false', { successFalse: true }],
	['400 quoting the Authorization header', { status: 400, echoAuthorization: true }],
];

/**
 * The fault kinds named (all of them without names), in the table's order; an unknown name throws.
 */
export function faultKinds(...names: string[]): Array<[string, Omit<FaultRule, 'path'>]> {
	const unknown = names.filter((name) => !FAULT_KINDS.some(([kind]) => kind === name));
	if (unknown.length) throw new Error(`Unknown fault kinds: ${unknown.join(', ')}`);
	return FAULT_KINDS.filter(([kind]) => names.length === 0 || names.includes(kind));
}

/** The kinds that reach a partner-mode call (the token call or the end user's call). */
export const PARTNER_FAULT_KINDS = faultKinds(
	'401',
	'429',
	'500',
	'503',
	'reset before',
	'reset after',
	'timeout',
	'malformed JSON',
	'success: false',
	'400 quoting the Authorization header',
);

/**
 * Captures console output (and process.stdout with `stdout: true`) in each test of the enclosing
 * describe; restored after each test. Call it after any beforeEach that should not be captured.
 */
export function captureConsole(options: { stdout?: boolean } = {}): string[] {
	const logged: string[] = [];
	const spies: jest.SpyInstance[] = [];
	beforeEach(() => {
		logged.length = 0;
		for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
			spies.push(
				jest
					.spyOn(console, method)
					.mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
			);
		}
		if (options.stdout) {
			spies.push(
				jest
					.spyOn(process.stdout, 'write')
					.mockImplementation((chunk: unknown) => (logged.push(String(chunk)), true)),
			);
		}
	});
	afterEach(() => spies.splice(0).forEach((spy) => spy.mockRestore()));
	return logged;
}

/**
 * Neither the master token nor an end user's permanent token, each plain or as Basic base64 of
 * "<token>:", nor any session JWT (plain or in base64) is in `text`.
 */
export function expectNoPartnerSecret(emu: Emulator, text: string) {
	for (const secret of [
		emu.partner.masterToken,
		...[...emu.state.endUsers.values()].map((user) => user.permanentToken),
	]) {
		expect(text).not.toContain(secret);
		expect(text).not.toContain(Buffer.from(`${secret}:`).toString('base64'));
	}
	expect(text).not.toMatch(/eyJhbGci[\w-]*\.[\w-]+/); // any session JWT
	expect(text).not.toContain('ZXlKaGJHY2lPaU'); // base64 of "eyJhbGciOi", a JWT sent as Basic
}
