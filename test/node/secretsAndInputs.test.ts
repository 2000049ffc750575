/**
 * Secrets and inputs, through n8n-core's engine over real HTTP:
 * - a service that echoes the token (whole, cut off, or one JWT segment) in an error: none of it
 *   reaches the error, even where the node cuts a long text short;
 * - a Base URL with a query, a fragment or user-info is refused before any request;
 * - keys that cannot travel as plain data (__proto__, constructor, prototype) in any user map are
 *   refused before any request, naming the parameter, the key and the item.
 * The echoing service is a tiny HTTP server in this file (the emulator never echoes tokens).
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator, VALID } from './setup';

const ctx = useEmulator();

/** Answers every request 400 with the text `answer(token)`; the token is read from the Authorization header. */
async function echoingService(answer: (token: string) => string) {
	const server = http.createServer((req, res) => {
		const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
		res.writeHead(400, { 'Content-Type': 'text/plain' });
		res.end(answer(token));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const listSolutions: INodeParameters = {
	resource: 'solution',
	operation: 'getAll',
	requestOptions: { maxRetries: 0 },
};

describe('a service that echoes the token', () => {
	const echoes: Array<[string, (token: string) => string]> = [
		[
			'the whole token, across the point where the message is cut (500 characters)',
			(token) => `${'x'.repeat(480)} token=${token} rejected`,
		],
		['only the signature segment', (token) => `bad signature ${token.split('.')[2]}`],
		['only the payload segment', (token) => `claims ${token.split('.')[1]} not accepted`],
		['the header segment glued to other text', (token) => `hdr:${token.split('.')[0]}xyz`],
		['the token cut off by the service', (token) => `token ${token.slice(0, 60)}…`],
		['the token cut off at its start', (token) => `…${token.slice(-40)} expired`],
	];

	it.each(echoes)('%s: no recognisable part reaches the error', async (_name, answer) => {
		const service = await echoingService(answer);
		try {
			const token = ctx.emu.token();
			const run = await runNode(ctx.emu, listSolutions, { token, baseUrl: service.baseUrl });
			expect(run.error?.httpCode).toBe('400');
			expect(run.error?.message).toMatch(/\[redacted\]/);
			const texts = [run.error?.message, run.error?.description, run.serialized].join('\n');
			for (const part of [token, ...token.split('.')]) expect(texts).not.toContain(part);
			for (let i = 0; i + 16 <= token.length; i += 8)
				expect(texts).not.toContain(token.slice(i, i + 16));
		} finally {
			await service.close();
		}
	});
});

describe('Base URL', () => {
	it.each([
		['a query', 'BASE/?tenant=1', /Base URL contains a query/],
		['a fragment', 'BASE/#top', /Base URL contains a fragment/],
		['user-info', 'http://admin:s3cret-pass@HOST', /Base URL contains a user name or password/],
		['not http(s)', 'ftp://example.com', /Base URL is not an http\(s\) address/],
	])('with %s is refused before any request', async (_name, pattern, message) => {
		const base = ctx.emu.baseUrl;
		const baseUrl = pattern.replace('BASE', base).replace('HOST', base.replace(/^http:\/\//, ''));
		const run = await runNode(ctx.emu, listSolutions, { baseUrl });
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toMatch(message);
		expect(run.serialized).not.toContain('s3cret-pass');
		expect(run.calls).toEqual([]);
	});

	it('a trailing slash and a path are fine', async () => {
		const run = await runNode(ctx.emu, listSolutions, { baseUrl: `${ctx.emu.baseUrl}/` });
		expect(run.error).toBeUndefined();
	});
});

describe('keys that cannot travel as data', () => {
	const { create, update, credential } = VALID;
	const cases: Array<[string, INodeParameters, RegExp]> = [
		[
			'bundle data: __proto__',
			{ ...update, fieldValues: '{"__proto__": {"polluted": 1}}' },
			/^Field Values has the key "__proto__", which cannot be sent/,
		],
		[
			'bundle data: constructor',
			{ ...update, fieldValues: '{"subject": "ok", "constructor": "x"}' },
			/^Field Values has the key "constructor"/,
		],
		[
			'bundle data mapper: prototype',
			{
				...update,
				fieldValuesMode: 'mapper',
				fieldMapper: { mappingMode: 'defineBelow', value: { prototype: 'x' } },
			},
			/^Field Values has the key "prototype"/,
		],
		[
			'connection settings: __proto__',
			{ ...create, credentialData: '{"crm": "hubspot", "__proto__": {"x": 1}}' },
			/^Connection Settings has the key "__proto__"/,
		],
		[
			'settings, nested',
			{ ...create, options: { settings: '{"sync": {"prototype": 1}}' } },
			/^Settings has the key "sync.prototype"/,
		],
		[
			'values already chosen',
			{
				resource: 'solution',
				operation: 'getConnectionSettings',
				solutionId: byId('id', 101),
				credentialData: '{"constructor": "x"}',
			},
			/^Values Already Chosen has the key "constructor"/,
		],
		[
			'credential fields',
			{ ...credential, fields: '{"apiUrl": "https://x.example", "__proto__": "k"}' },
			/^Connection Fields has the key "__proto__"/,
		],
		[
			'credential name field',
			{ ...credential, options: { nameField: 'constructor' } },
			/^Options → Name Field cannot be "constructor"/,
		],
	];

	it.each(cases)('%s: refused before any request', async (_name, parameters, message) => {
		const run = await runNode(ctx.emu, parameters);
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toMatch(message);
		expect((run.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(run.calls).toEqual([]);
	});
});
