/** The pure rules of partner mode: which token a /wl response carries, until when, and the ids. */
import jwt from 'jsonwebtoken';

import { checkEndUserId, checkPartnerName } from '../../nodes/shared/transport/partnerIds';
import {
	fingerprint,
	forTests,
	refreshMargin,
	tokenFromResponse,
	withoutTokens,
} from '../../nodes/shared/readers/mintedToken';

const { validUntil } = forTests;

describe('tokenFromResponse', () => {
	const exp = 1_900_000_000;
	const session = jwt.sign({ sub: 'x', exp }, 'secret');

	it('prefers the session token with its sessionTokenValidUntil', () => {
		expect(
			tokenFromResponse({
				permanentToken: 'perm',
				sessionToken: session,
				sessionTokenValidUntil: exp - 100,
			}),
		).toEqual({ token: session, expiresAt: (exp - 100) * 1000 });
	});
	it('a session token without validUntil: its own exp', () => {
		expect(tokenFromResponse({ sessionToken: session })).toEqual({
			token: session,
			expiresAt: exp * 1000,
		});
	});
	it("a sessionTokenValidUntil already past (e.g. a lifetime, 3600): the JWT's own exp, else none", () => {
		expect(tokenFromResponse({ sessionToken: session, sessionTokenValidUntil: 3600 })).toEqual({
			token: session,
			expiresAt: exp * 1000,
		});
		expect(
			tokenFromResponse({ sessionToken: session, sessionTokenValidUntil: '2001-01-01T00:00:00Z' }),
		).toEqual({ token: session, expiresAt: exp * 1000 });
		expect(
			tokenFromResponse({ sessionToken: 'opaque-session', sessionTokenValidUntil: 3600 }),
		).toEqual({ token: 'opaque-session', expiresAt: undefined });
		const expired = jwt.sign({ sub: 'x', exp: 1_000_000_000 }, 'secret');
		expect(
			tokenFromResponse({ sessionToken: expired, sessionTokenValidUntil: 1_000_000_000 }),
		).toEqual({ token: expired, expiresAt: 1_000_000_000_000 });
	});
	it('a single `token`', () => {
		expect(tokenFromResponse({ token: session, id: 1 })).toEqual({
			token: session,
			expiresAt: exp * 1000,
		});
	});
	it('a permanent token has no expiry', () => {
		expect(tokenFromResponse({ permanentToken: ' perm_1 ' })).toEqual({
			token: 'perm_1',
			expiresAt: undefined,
		});
	});
	it('nothing usable', () => {
		expect(tokenFromResponse({ sessionToken: '', id: 1 })).toBeUndefined();
		expect(tokenFromResponse(null)).toBeUndefined();
		expect(tokenFromResponse(['x'])).toBeUndefined();
	});
});

describe('validUntil', () => {
	it.each([
		[1_900_000_000, 1_900_000_000_000],
		['1900000000', 1_900_000_000_000],
		[1_900_000_000_000, 1_900_000_000_000],
		['2030-03-17T17:46:40Z', Date.parse('2030-03-17T17:46:40Z')],
		[0, undefined],
		['soon', undefined],
		[null, undefined],
	])('%p → %p', (input, expected) => expect(validUntil(input)).toBe(expected));
});

it('refreshMargin: a minute, or half the life of a short token', () => {
	expect(refreshMargin(0, 3_600_000)).toBe(60_000);
	expect(refreshMargin(0, 10_000)).toBe(5_000);
	expect(refreshMargin(10_000, 0)).toBe(0);
});

it('withoutTokens keeps everything but the token fields', () => {
	expect(
		withoutTokens({
			id: 1,
			email: 'e',
			token: 't',
			sessionToken: 's',
			permanentToken: 'p',
			sessionTokenValidUntil: 5,
		}),
	).toEqual({ id: 1, email: 'e', sessionTokenValidUntil: 5 });
});

it('withoutTokens also drops token-like fields the docs do not name (they would reach the output)', () => {
	const data = {
		id: 1,
		refreshToken: 'r',
		access_token: 'a',
		apiKey: 'k',
		jwt: 'j',
		clientSecret: 's',
		tokenExpiresAt: 9,
		planId: 2,
	};
	expect(withoutTokens(data)).toEqual({ id: 1, tokenExpiresAt: 9, planId: 2 });
});

it('fingerprint tells data apart and is stable', () => {
	expect(fingerprint('a')).toBe(fingerprint('a'));
	expect(fingerprint('a')).toMatch(/^[0-9a-f]{16}$/);
	const many = new Set(Array.from({ length: 10_000 }, (_, i) => fingerprint(`master-${i}`)));
	expect(many.size).toBe(10_000);
});

describe('ids', () => {
	it.each([
		['c-1', 'c-1'],
		[' c-1 ', 'c-1'],
		[42, '42'],
	])('End User ID %p is %p', (input, id) => expect(checkEndUserId(input)).toEqual({ id }));
	it.each([[''], ['  '], [null], [{}], ['x'.repeat(256)], ['a\tb']])(
		'End User ID %p is refused',
		(input) => expect(checkEndUserId(input)).toHaveProperty('problem'),
	);
	it('Partner Name: a path segment of letters, digits and -_.~', () => {
		expect(checkPartnerName(' my-saas ')).toBe('my-saas');
		for (const bad of ['', 'a/b', 'a b', '..%2F', 'x'.repeat(101)])
			expect(checkPartnerName(bad)).toBeUndefined();
	});
});
