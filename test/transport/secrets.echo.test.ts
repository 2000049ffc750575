/**
 * A service that echoes the token (whole, cut off, or one JWT segment) in an error: none of it
 * reaches the error. The echoing service is a tiny HTTP server in this file.
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { INodeParameters } from 'n8n-workflow';

import { runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

/**
 * Answers every request 400 with the text `answer(token)`; the token is read from the Authorization
 * header.
 */
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

describe('a service that echoes the header of a token sent as Basic username', () => {
	// Not a JWT: on Auto it goes as Basic base64("<token>:") first.
	const token = 'perm_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9';
	const encoded = Buffer.from(`${token}:`).toString('base64');

	/** Answers 400 with `answer(header)`, the request's whole Authorization header. */
	async function echoingHeader(answer: (header: string) => string) {
		const server = http.createServer((req, res) => {
			res.writeHead(400, { 'Content-Type': 'text/plain' });
			res.end(answer(String(req.headers.authorization ?? '')));
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return {
			baseUrl: `http://127.0.0.1:${port}`,
			close: () => new Promise<void>((resolve) => server.close(() => resolve())),
		};
	}

	const echoes: Array<[string, (header: string) => string]> = [
		['the whole header', (header) => `bad credentials: ${header}`],
		['the base64 alone', (header) => `user ${header.split(' ')[1]} unknown`],
		['the base64 cut off', (header) => `auth ${header.split(' ')[1].slice(0, 30)}…`],
		['the base64 decoded', (header) => `who is ${Buffer.from(header.split(' ')[1], 'base64')}?`],
	];

	it.each(echoes)(
		'%s: neither the token nor its base64 reaches the error',
		async (_name, answer) => {
			const service = await echoingHeader(answer);
			try {
				const run = await runNode(ctx.emu, listSolutions, { token, baseUrl: service.baseUrl });
				expect(run.error?.httpCode).toBe('400');
				expect(run.error?.message).toMatch(/\[redacted\]/);
				const texts = [run.error?.message, run.error?.description, run.serialized].join('\n');
				for (const secret of [token, encoded])
					for (let i = 0; i + 16 <= secret.length; i += 4)
						expect(texts).not.toContain(secret.slice(i, i + 16));
			} finally {
				await service.close();
			}
		},
	);
});
