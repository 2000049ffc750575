/** Token readers: a JWT's expiry, redaction's edges, and whom a token acts for. */
import { principalOf, redact, redactKeys, tokenExpiry } from '../../nodes/shared/readers/token';

const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;

it('tokenExpiry: only a numeric exp counts', () => {
	expect(tokenExpiry(jwt({ exp: '1700000000' }))).toBeUndefined();
	expect(tokenExpiry('nodots')).toBeUndefined();
	expect(tokenExpiry('h..s')).toBeUndefined();
	expect(tokenExpiry(jwt({ exp: 0 }))?.getTime()).toBe(0);
});

describe('redact: edges', () => {
	it('secrets under 8 characters are not looked for (they would eat ordinary words)', () => {
		expect(redact('key abcdefg here', 'abcdefg')).toBe('key abcdefg here');
		expect(redact('key abcdefgh here', 'abcdefgh')).toBe('key [redacted] here');
		expect(redact('text', undefined)).toBe('text');
		expect(redact('text', '')).toBe('text');
	});

	it('secrets under 16 characters are redacted whole only', () => {
		const secret = 'ABCDEFGHIJKLMNO'; // 15
		expect(redact(`x ${secret} y`, secret)).toBe('x [redacted] y');
		expect(redact(`x ${secret.slice(0, 14)}Z y`, secret)).toBe(`x ${secret.slice(0, 14)}Z y`);
	});

	it('a 16-character window of a longer secret is found; 15 are not', () => {
		const secret = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'; // 26
		expect(redact(`a ${secret.slice(10)} b`, secret)).toBe('a [redacted] b');
		expect(redact(`a ${secret.slice(11)} b`, secret)).toBe(`a ${secret.slice(11)} b`);
		expect(redact(`a ${secret.slice(0, 16)} b`, secret)).toBe('a [redacted] b');
	});

	it('only the covered characters of a run go; two pieces give two marks', () => {
		const secret = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
		const first = secret.slice(0, 16);
		const last = secret.slice(-16);
		expect(redact(`${first}-xyz-${last}`, secret)).toBe('[redacted]-xyz-[redacted]');
		expect(redact(`pre${first}mid${last}post`, secret)).toBe('pre[redacted]mid[redacted]post');
		// Two overlapping windows make one stretch, one mark.
		expect(redact(`q${secret.slice(0, 20)}q`, secret)).toBe('q[redacted]q');
	});
});

describe('principalOf', () => {
	it('a numeric subject counts; an empty or other subject falls back to the digest', () => {
		expect(principalOf('b', jwt({ sub: 7 }))).toBe('b sub:7');
		expect(principalOf('b', jwt({ sub: '' }))).toMatch(/^b token:[0-9a-f]+$/);
		expect(principalOf('b', jwt({ sub: { id: 1 } }))).toMatch(/^b token:[0-9a-f]+$/);
		expect(principalOf('b', 'h.%%%.s')).toMatch(/^b token:[0-9a-f]+$/);
	});

	it('the digest is FNV-1a of the token: stable, and tells tokens apart', () => {
		expect(principalOf('b', '')).toBe('b token:811c9dc5');
		expect(principalOf('b', 'a')).toBe('b token:e40c292c');
		const many = new Set(Array.from({ length: 2000 }, (_, i) => principalOf('b', `tok-${i}`)));
		expect(many.size).toBe(2000);
	});
});

describe('redactKeys: the values of named keys, in JSON and in query strings', () => {
	it('hides a JSON value and a query value of each key, and leaves other keys alone', () => {
		const text =
			'{"token": "abc", "secret":"s e c", "title":"Keep"} GET /x?token=t0k&page=2&secret=sss';
		expect(redactKeys(text, ['token', 'secret'])).toBe(
			'{"token": "[redacted]", "secret":"[redacted]", "title":"Keep"} GET /x?token=[redacted]&page=2&secret=[redacted]',
		);
	});

	it('an unterminated JSON value is hidden up to the end', () => {
		expect(redactKeys('{"password": "cut-off', ['password'])).toBe('{"password": "[redacted]"');
	});

	it('a key is matched by its word characters only; a key with none is skipped', () => {
		expect(redactKeys('{"api_key":"k1"} ?api_key=k2', ['api_key()'])).toBe(
			'{"api_key":"[redacted]"} ?api_key=[redacted]',
		);
		expect(redactKeys('{"":"x"} ?=y', ['()', ''])).toBe('{"":"x"} ?=y');
	});

	it('every occurrence of a key is hidden, not just the first', () => {
		expect(redactKeys('[{"token":"a"},{"token":"b"}] ?token=c&x=1&token=d', ['token'])).toBe(
			'[{"token":"[redacted]"},{"token":"[redacted]"}] ?token=[redacted]&x=1&token=[redacted]',
		);
	});

	it('no keys: the text is unchanged', () => {
		expect(redactKeys('{"token":"abc"}', [])).toBe('{"token":"abc"}');
	});
});
