/** Minted end-user tokens: every variant of the answer, expiry units, and the checks on ids. */
import { checkEndUserId, checkPartnerName } from '../../nodes/shared/transport/partnerIds';
import {
	fingerprint,
	forTests,
	tokenFromResponse,
	withoutTokens,
} from '../../nodes/shared/readers/mintedToken';

const { validUntil } = forTests;

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
const NOW = 1_800_000_000_000;
beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
afterEach(() => jest.restoreAllMocks());

describe('tokenFromResponse', () => {
	it('order: sessionToken, token, accessToken, permanentToken; blanks skipped, text trimmed', () => {
		expect(tokenFromResponse({ token: ' t ', accessToken: 'a' })?.token).toBe('t');
		expect(tokenFromResponse({ token: '  ', accessToken: 'a', permanentToken: 'p' })?.token).toBe(
			'a',
		);
		expect(tokenFromResponse({ accessToken: 7, permanentToken: 'p' })?.token).toBe('p');
		expect(tokenFromResponse({ sessionToken: ' s ', token: 't' })?.token).toBe('s');
	});

	it('a validUntil counts for the session token only, and only when still ahead', () => {
		expect(
			tokenFromResponse({ token: 't', sessionTokenValidUntil: NOW / 1000 + 60 })?.expiresAt,
		).toBeUndefined();
		expect(
			tokenFromResponse({ sessionToken: 's', sessionTokenValidUntil: NOW / 1000 + 60 })?.expiresAt,
		).toBe(NOW + 60_000);
		expect(tokenFromResponse({ sessionToken: 's', sessionTokenValidUntil: NOW })?.expiresAt).toBe(
			undefined,
		);
		expect(
			tokenFromResponse({ sessionToken: jwt({ exp: 1_900_000_000 }), sessionTokenValidUntil: NOW })
				?.expiresAt,
		).toBe(1_900_000_000_000);
	});
});

describe('validUntil: units', () => {
	it.each([
		['1900000000.25', 1_900_000_000_250],
		[' 1900000000 ', 1_900_000_000_000],
		[1e12, 1e15],
		[1e12 + 1, 1e12 + 1],
		[-5, undefined],
		[Number.POSITIVE_INFINITY, undefined],
		['', undefined],
		['   ', undefined],
		['12abc', undefined],
		[true, undefined],
	])('%p → %p', (input, expected) => expect(validUntil(input)).toBe(expected));
});

describe('withoutTokens', () => {
	it('keeps expiry fields of every spelling, drops every secret-like name', () => {
		expect(
			withoutTokens({
				tokenValidUntil: 1,
				tokenExpires: 2,
				tokenExpire: 3,
				tokenExpiresIn: 4,
				tokenExpiresAt: 5,
				password: 'x',
				api_key: 'x',
				apikey: 'x',
				TOKENVALUE: 'x',
				tokenExpiresAtX: 'x',
				myTokenValidUntilNot: 'x',
				secretExpiry: 'x',
				accessToken: 'x',
				name: 'kept',
			}),
		).toEqual({
			tokenValidUntil: 1,
			tokenExpires: 2,
			tokenExpire: 3,
			tokenExpiresIn: 4,
			tokenExpiresAt: 5,
			name: 'kept',
		});
		expect(withoutTokens('text')).toEqual({});
	});
});

describe('fingerprint', () => {
	it('is 64 bits of hex, each 32-bit lane telling texts apart on its own', () => {
		const texts = Array.from({ length: 3000 }, (_, i) => `credential-${i}`);
		const prints = texts.map(fingerprint);
		for (const print of prints) expect(print).toMatch(/^[0-9a-f]{16}$/);
		expect(new Set(prints.map((p) => p.slice(0, 8))).size).toBe(3000);
		expect(new Set(prints.map((p) => p.slice(8))).size).toBe(3000);
		expect(fingerprint('ab')).not.toBe(fingerprint('ba'));
		// The first lane is standard 32-bit FNV-1a.
		expect(fingerprint('a').slice(0, 8)).toBe('e40c292c');
		expect(fingerprint('').slice(0, 8)).toBe('811c9dc5');
	});
});

describe('checkEndUserId', () => {
	it('255 characters are allowed, 256 are not; the problem names the length', () => {
		expect(checkEndUserId('x'.repeat(255))).toEqual({ id: 'x'.repeat(255) });
		expect(checkEndUserId('x'.repeat(256))).toEqual({
			problem: 'is 256 characters long; at most 255 are allowed',
		});
	});

	it('names the problem', () => {
		expect(checkEndUserId(null)).toEqual({ problem: 'must be text or a number, got null' });
		expect(checkEndUserId({})).toEqual({ problem: 'must be text or a number, got object' });
		expect(checkEndUserId(Number.NaN)).toEqual({ problem: 'must be text or a number, got number' });
		expect(checkEndUserId(' ')).toEqual({ problem: 'is empty' });
		expect(checkEndUserId('a\u007fb')).toEqual({
			problem: 'contains control characters (e.g. a line break)',
		});
		expect(checkEndUserId('a\u001fb')).toHaveProperty('problem');
		expect(checkEndUserId('a b~ü')).toEqual({ id: 'a b~ü' });
		expect(checkEndUserId('\u0020x\u0080')).toEqual({ id: 'x\u0080' });
	});
});

it('checkPartnerName: dots alone are path steps; 100 characters at most', () => {
	expect(checkPartnerName('.')).toBeUndefined();
	expect(checkPartnerName('...')).toBeUndefined();
	expect(checkPartnerName('a.b')).toBe('a.b');
	expect(checkPartnerName('.a')).toBe('.a');
	expect(checkPartnerName('a.')).toBe('a.');
	expect(checkPartnerName('x'.repeat(100))).toBe('x'.repeat(100));
	expect(checkPartnerName('A-z_0.9~')).toBe('A-z_0.9~');
	expect(checkPartnerName(42)).toBeUndefined();
	expect(checkPartnerName('ok\n')).toBe('ok');
	expect(checkPartnerName('a\nb')).toBeUndefined();
});
