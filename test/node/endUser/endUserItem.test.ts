import { endUserItem } from '../../../nodes/AlbatoSolutions/actions/endUser/endUserItem';

const KEYS = [
	'endUserId',
	'created',
	'albatoUserId',
	'email',
	'language',
	'timezoneOffset',
	'planId',
	'trxLimit',
	'tokenValidUntil',
];

describe('endUserItem: one shape for End User items', () => {
	const addUserData = {
		id: '70001',
		email: 'c-1@acme.example',
		language: 'en',
		timezoneOffset: -180,
		planId: 3,
		trxLimit: 1000,
		sessionToken: 'eyJ.secret',
		permanentToken: 'perm_secret',
		sessionTokenValidUntil: 1_900_000_000,
	};

	it("created: Albato's id as albatoUserId (a number), expiry once as ISO, no token fields", () => {
		const item = endUserItem({
			endUserId: 'c-1',
			created: true,
			data: addUserData,
			expiresAt: 1_900_000_000_000,
		});
		expect(item).toEqual({
			endUserId: 'c-1',
			created: true,
			albatoUserId: 70001,
			email: 'c-1@acme.example',
			language: 'en',
			timezoneOffset: -180,
			planId: 3,
			trxLimit: 1000,
			tokenValidUntil: '2030-03-17T17:46:40.000Z',
		});
	});

	it('existing: the same keys, unknown ones null', () => {
		const item = endUserItem({ endUserId: 'c-1', created: false, expiresAt: undefined });
		expect(Object.keys(item)).toEqual(KEYS);
		expect(item).toMatchObject({ created: false, albatoUserId: null, tokenValidUntil: null });
	});

	it('keeps fields the service adds, and the token only when asked', () => {
		const item = endUserItem({
			endUserId: 'c-1',
			created: true,
			data: { ...addUserData, region: 'eu' },
			expiresAt: undefined,
			token: 'eyJ.secret',
		});
		expect(Object.keys(item)).toEqual([...KEYS.slice(0, 8), 'region', 'tokenValidUntil', 'token']);
		expect(
			JSON.stringify(
				endUserItem({ endUserId: 'x', created: true, data: addUserData, expiresAt: 1 }),
			),
		).not.toMatch(/secret|sessionTokenValidUntil|"id"/);
	});
});
