import { redact, tokenExpiry } from '../../nodes/AlbatoSolutions/helpers/token';

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

describe('tokenExpiry', () => {
	it('reads exp of a JWT', () => {
		expect(tokenExpiry(jwt({ exp: 1_700_000_000 }))?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
	});
	it('is undefined for tokens without exp or that are not JWTs', () => {
		expect(tokenExpiry(jwt({ sub: 'u' }))).toBeUndefined();
		expect(tokenExpiry('opaque-token')).toBeUndefined();
		expect(tokenExpiry('a.%%%.c')).toBeUndefined();
	});
});

describe('redact', () => {
	it('removes every occurrence of the secret', () => {
		expect(redact('Bearer abcdefghijk and abcdefghijk', 'abcdefghijk')).toBe('Bearer [redacted] and [redacted]');
	});
});
