/**
 * The two credentials read and checked before any request: what each refusal says, what is used.
 */

import { readAccessToken } from '../../nodes/shared/transport/accessToken';
import type { ApiContext } from '../../nodes/shared/transport/callOptions';
import {
	authenticationOf,
	parameter,
	readPartnerCredential,
} from '../../nodes/shared/transport/partnerCredential';
import { node } from '../support/node';

/** A context that only hands out one credential's data and the node. */
const holding = (data: Record<string, unknown>) => {
	const asked: string[] = [];
	const ctx = {
		getNode: () => node,
		getCredentials: async (type: string) => {
			asked.push(type);
			return data;
		},
	} as unknown as ApiContext;
	return { ctx, asked };
};

const refusal = async (read: Promise<unknown>) => {
	const error = (await read.then(
		() => {
			throw new Error('expected a refusal');
		},
		(e: unknown) => e,
	)) as Error & { description?: string };
	return { message: error.message, description: error.description };
};

const jwt = (claims: object) =>
	`eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;

describe('readAccessToken', () => {
	afterEach(() => jest.restoreAllMocks());

	it('gives the Base URL and the token, trimmed', async () => {
		const { ctx, asked } = holding({ baseUrl: ' https://api.example.com/ ', accessToken: ' t-1 ' });
		const read = await readAccessToken(ctx);
		expect([read.baseUrl, read.token]).toEqual(['https://api.example.com', 't-1']);
		expect(asked).toEqual(['albatoSolutionsApi']);
	});

	it('a Base URL that is no address: refused, saying where to fix it', async () =>
		expect(
			await refusal(readAccessToken(holding({ baseUrl: 'api', accessToken: 't' }).ctx)),
		).toEqual({
			message: "The credential's Base URL is not an http(s) address",
			description:
				'Set Base URL in the Albato Solutions API credential, e.g. https://api.albato.com',
		}));

	it.each([[undefined], [''], ['   ']])('Access Token %p: refused', async (accessToken) =>
		expect(
			await refusal(readAccessToken(holding({ baseUrl: 'https://a.example', accessToken }).ctx)),
		).toEqual({
			message: 'The credential has no Access Token',
			description: "Paste the end user's token into the Albato Solutions API credential",
		}),
	);

	it('a JWT expired at this very millisecond: refused; a millisecond before, used', async () => {
		const token = jwt({ exp: 2_000_000_000 });
		const { ctx } = holding({ baseUrl: 'https://a.example', accessToken: token });
		jest.spyOn(Date, 'now').mockReturnValue(2_000_000_000_000);
		expect(await refusal(readAccessToken(ctx))).toEqual({
			message: 'The access token expired at 2033-05-18T03:33:20.000Z',
			description: 'Get a new end-user token and update the Albato Solutions API credential',
		});
		jest.spyOn(Date, 'now').mockReturnValue(2_000_000_000_000 - 1);
		expect((await readAccessToken(ctx)).token).toBe(token);
	});
});

describe('readPartnerCredential', () => {
	const good = { baseUrl: 'https://api.example.com/', partnerName: 'acme', masterToken: 'm-1' };

	it('gives the values trimmed, with the data as stored', async () => {
		const data = { ...good, partnerName: ' acme ', masterToken: ' m-1 ' };
		const { ctx, asked } = holding(data);
		expect(await readPartnerCredential(ctx)).toEqual({
			baseUrl: 'https://api.example.com',
			partnerName: 'acme',
			masterToken: 'm-1',
			credentials: data,
		});
		expect(asked).toEqual(['albatoPartnerApi']);
	});

	it('a Base URL that is no address: refused first, saying where to fix it', async () =>
		expect(
			await refusal(
				readPartnerCredential(
					holding({ baseUrl: 'ftp://x', partnerName: '..', masterToken: '' }).ctx,
				),
			),
		).toEqual({
			message: "The credential's Base URL is not an http(s) address",
			description: 'Set Base URL in the Albato Partner API credential, e.g. https://api.albato.com',
		}));

	it.each([
		['..', '..'],
		['a/b', 'a/b'],
		[undefined, ''],
	])('Partner Name %p: refused before the master token is looked at', async (partnerName, shown) =>
		expect(
			await refusal(readPartnerCredential(holding({ ...good, partnerName, masterToken: '' }).ctx)),
		).toEqual({
			message: `The credential's Partner Name "${shown}" is not valid`,
			description:
				'Set Partner Name in the Albato Partner API credential to the {partner-name} of your partner URLs (letters, digits, - _ . ~)',
		}),
	);

	it.each([[undefined], [''], ['  ']])('Master Token %p: refused', async (masterToken) =>
		expect(await refusal(readPartnerCredential(holding({ ...good, masterToken }).ctx))).toEqual({
			message: 'The credential has no Master Token',
			description:
				'Paste the master token from the Embedded panel into the Albato Partner API credential',
		}),
	);
});

describe('parameter: as each kind of context reads it', () => {
	const values: Record<string, unknown[]> = { authentication: ['partnerApi', 'accessToken'] };

	it('in a picker: the editor value, else the fallback', () => {
		const ctx = {
			getCurrentNodeParameter: (name: string) => values[name]?.[0],
		} as unknown as ApiContext;
		expect(parameter(ctx, 'authentication', 1, 'fallback')).toBe('partnerApi');
		expect(parameter(ctx, 'endUserId', 1, 'fallback')).toBe('fallback');
		expect(authenticationOf(ctx)).toBe('partnerApi');
	});

	it('executing: per item (item 0 when none is given)', () => {
		const ctx = {
			getInputData: () => [],
			getNodeParameter: (name: string, item: number, fallback: unknown) =>
				values[name]?.[item] ?? fallback,
		} as unknown as ApiContext;
		expect(parameter(ctx, 'authentication', 1, 'fallback')).toBe('accessToken');
		expect(parameter(ctx, 'authentication', undefined, 'fallback')).toBe('partnerApi');
		expect(parameter(ctx, 'endUserId', 0, 'fallback')).toBe('fallback');
	});

	it('polling: the one value (a poll has no items), else the fallback', () => {
		// IPollFunctions.getNodeParameter(name, fallback): no item index.
		const ctx = {
			getNodeParameter: (name: string, fallback?: unknown) => values[name]?.[0] ?? fallback,
		} as unknown as ApiContext;
		expect(parameter(ctx, 'authentication', 1, 'fallback')).toBe('partnerApi');
		expect(parameter(ctx, 'endUserId', 1, 'fallback')).toBe('fallback');
		expect(authenticationOf(ctx)).toBe('partnerApi');
	});
});
