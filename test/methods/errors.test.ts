/**
 * Every picker's error messages in the editor: no credential, a refused token, the service as it is
 * now, a service that cannot be reached.
 */
import jwt from 'jsonwebtoken';
import type { INodeParameters } from 'n8n-workflow';

import { METHODS, PARENTS, usePickers } from '../support/methodsSetup';

const pickers = usePickers();
const withToken = (accessToken: string) => ({ baseUrl: pickers.emu.baseUrl, accessToken });

describe.each(METHODS)('$method: a clear message in the picker', ({ kind, method, what }) => {
	const parameters = PARENTS[method] as INodeParameters;

	it("names the credential to choose when the node has none (n8n-core's error replaced), and sends nothing", async () => {
		const { error, calls } = await pickers.failure(kind, method, parameters, { credential: null });
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toBe(`Select an Albato Solutions API credential to load ${what}`);
		expect(error.description).toMatch(/choose or create an Albato Solutions API credential/);
		expect(calls).toEqual([]);
	});

	it('says when the token expired, and sends nothing', async () => {
		const { error, calls } = await pickers.failure(kind, method, parameters, {
			credential: withToken(pickers.emu.token({ expiresInSeconds: -60 })),
		});
		expect(error.message).toMatch(/^The access token expired at \d{4}-/);
		expect(error.description).toMatch(/Get a new end-user token/);
		expect(calls).toEqual([]);
	});

	it('says when the credential has no token or no usable Base URL, and sends nothing', async () => {
		const noToken = await pickers.failure(kind, method, parameters, {
			credential: withToken('  '),
		});
		expect(noToken.error.message).toBe('The credential has no Access Token');
		const noUrl = await pickers.failure(kind, method, parameters, {
			credential: { baseUrl: 'api.albato.com', accessToken: pickers.token },
		});
		expect(noUrl.error.message).toMatch(/Base URL is not an http\(s\) address/);
		expect([...noToken.calls, ...noUrl.calls]).toEqual([]);
	});

	it('says what could not be loaded when the service refuses the token', async () => {
		const foreign = jwt.sign({ sub: 'user-1' }, 'not-the-service-secret', {
			algorithm: 'HS256',
			expiresIn: 600,
		});
		const { error, calls } = await pickers.failure(kind, method, parameters, {
			credential: withToken(foreign),
		});
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe(`Could not load ${what}: Invalid token signature`);
		// No httpCode: n8n's editor would put it before the message ("401 - Could not load …").
		expect(error.httpCode ?? null).toBeNull();
		expect(error.description).toMatch(/→ 401\. Check the Access Token/);
		expect(calls.length).toBeGreaterThan(0);
		expect(
			JSON.stringify({ message: error.message, description: error.description }),
		).not.toContain(foreign);
	});

	it('says what could not be loaded when the service fails, with the call in the description', async () => {
		pickers.emu.faults.add({ path: /./, status: 500, times: 5 });
		const { error } = await pickers.failure(kind, method, parameters);
		expect(error.message).toMatch(new RegExp(`^Could not load ${what.replace(/[()']/g, '.')}: `));
		expect(error.httpCode ?? null).toBeNull();
		expect(error.description).toMatch(/^GET \/\S+ → 500\. The service failed; try again later\./);
	});

	it('caches nothing: two calls make two rounds of requests', async () => {
		const first = await pickers.call(kind, method, parameters);
		const second = await pickers.call(kind, method, parameters);
		expect(first.calls.length).toBeGreaterThan(0);
		// Sorted: getSteps sends its two requests in parallel.
		expect([...second.calls].sort()).toEqual([...first.calls].sort());
		expect(second.result).toEqual(first.result);
	});
});

describe('every picker reflects the service as it is now', () => {
	it('an installation removed elsewhere is gone from the next search', async () => {
		const before = await pickers.call<{ results: Array<{ value: string }> }>(
			'listSearch',
			'searchInstallations',
			PARENTS.searchInstallations,
		);
		pickers.emu.removeInstallation(5002);
		const after = await pickers.call<{ results: Array<{ value: string }> }>(
			'listSearch',
			'searchInstallations',
			PARENTS.searchInstallations,
		);
		expect(before.result.results.map((entry) => entry.value)).toEqual(['5001', '5002']);
		expect(after.result.results.map((entry) => entry.value)).toEqual(['5001']);
	});

	it('a field value changed elsewhere shows in the next refresh of the mapper', async () => {
		const label = async () =>
			(
				await pickers.call<{ fields: Array<{ displayName: string }> }>(
					'resourceMapping',
					'getFieldValueFields',
					PARENTS.getFieldValueFields,
				)
			).result.fields[0].displayName;
		expect(await label()).toBe('Subject (now: Welcome aboard)');
		pickers.emu.state.bundleData
			.get(9002)!
			.fields.find((field) => field.name === 'subject')!.value = 'Changed elsewhere';
		expect(await label()).toBe('Subject (now: Changed elsewhere)');
	});
});

describe('a service that cannot be reached', () => {
	it('says what could not be loaded and what to check', async () => {
		const { error } = await pickers.failure(
			'listSearch',
			'searchSolutions',
			PARENTS.searchSolutions,
			{
				credential: { baseUrl: 'http://127.0.0.1:9', accessToken: pickers.token },
			},
		);
		expect(error.message).toMatch(
			/^Could not load the solutions: The request failed before the service answered/,
		);
		expect(error.description).toMatch(/Check the Base URL of the credential/);
	}, 20_000);
});
