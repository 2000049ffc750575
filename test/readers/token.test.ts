/**
 * The token readers: a JWT's expiry, redaction of every recognisable part of a token, and the
 * principal a token names.
 */
import {
	namedPrincipalOf,
	principalOf,
	redact,
	tokenExpiry,
} from '../../nodes/shared/readers/token';

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

describe('tokenExpiry', () => {
	it('reads exp of a JWT', () => {
		expect(tokenExpiry(jwt({ exp: 1_700_000_000 }))?.toISOString()).toBe(
			'2023-11-14T22:13:20.000Z',
		);
	});
	it('is undefined for tokens without exp or that are not JWTs', () => {
		expect(tokenExpiry(jwt({ sub: 'u' }))).toBeUndefined();
		expect(tokenExpiry('opaque-token')).toBeUndefined();
		expect(tokenExpiry('a.%%%.c')).toBeUndefined();
	});
});

describe('redact', () => {
	it('removes every occurrence of the secret', () => {
		expect(redact('Bearer abcdefghijk and abcdefghijk', 'abcdefghijk')).toBe(
			'Bearer [redacted] and [redacted]',
		);
	});
});

describe('redact: every recognisable part of a JWT', () => {
	const header = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9';
	const payload = Buffer.from(JSON.stringify({ sub: 'user-1', exp: 4_000_000_000 })).toString(
		'base64url',
	);
	const signature = 'q1Zr3mGx8yYpWcQe0vT5nLk2HsJdF7aB9uXoRiEwNzM';
	const token = `${header}.${payload}.${signature}`;

	it.each([
		['the signature alone', `sig ${signature}!`, 'sig [redacted]!'],
		['the payload alone', `(${payload})`, '([redacted])'],
		['a piece cut off by the service', `t=${token.slice(0, 50)}`, 't=[redacted]'],
		['a tail glued to other characters', `abc${token.slice(-30)}`, 'abc[redacted]'],
	])('%s', (_name, text, expected) => expect(redact(text, token)).toBe(expected));

	it('leaves short look-alikes and other text alone', () => {
		expect(redact(`user ${payload.slice(0, 10)} and the word eyJhbGciOi`, token)).toBe(
			`user ${payload.slice(0, 10)} and the word eyJhbGciOi`,
		);
	});
});

describe('principalOf', () => {
	it('is the base URL and the subject; never the token', () => {
		const token = jwt({ sub: 'user-7' });
		expect(principalOf('https://a', token)).toBe('https://a sub:user-7');
		expect(principalOf('https://a', 'opaque-token-123')).not.toContain('opaque');
	});

	it("reads Albato's session tokens, which name the user in `identity`: a fresh token is the same user", () => {
		const first = jwt({ identity: 97330, trueIdentity: 97330, exp: 1_700_000_000 });
		const fresh = jwt({ identity: 97330, trueIdentity: 97330, exp: 1_700_003_600 });
		expect(principalOf('https://a', first)).toBe('https://a sub:97330');
		expect(principalOf('https://a', fresh)).toBe(principalOf('https://a', first));
		expect(principalOf('https://a', jwt({ identity: 97331 }))).not.toBe(
			principalOf('https://a', first),
		);
	});

	it('prefers `sub`; an empty or non-scalar subject is no name', () => {
		expect(principalOf('https://a', jwt({ sub: 'user-7', identity: 97330 }))).toBe(
			'https://a sub:user-7',
		);
		expect(principalOf('https://a', jwt({ sub: '', identity: 97330 }))).toBe('https://a sub:97330');
		const unnamed = jwt({ identity: { id: 1 }, exp: 1 });
		expect(principalOf('https://a', unnamed)).toMatch(/^https:\/\/a token:[0-9a-f]+$/);
		expect(namedPrincipalOf('https://a', unnamed)).toBeUndefined();
	});
});
