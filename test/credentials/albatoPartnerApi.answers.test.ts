/**
 * The Albato Partner API credential's "Test" button: it passes only on an answer that is
 * recognisably Albato's (a JSON body with the "success" indicator), never on another server's 404
 * page.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { testCredential as testCredentials } from '../../harness/credentialTest';
import { partnerCredential, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();

/** A server that is not Albato: every request gets the same answer; the paths it saw are kept. */
async function stubServer(status: number, contentType: string, body: string) {
	const seen: string[] = [];
	const server = http.createServer((request, response) => {
		seen.push(`${request.method} ${request.url}`);
		request.resume();
		response.writeHead(status, { 'Content-Type': contentType });
		response.end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		seen,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const test = (extra = {}) =>
	testCredentials(new AlbatoPartnerApi(), partnerCredential(ctx.emu, extra));

describe('the partner credential test', () => {
	it("passes on the emulator's Albato answer for the unknown test user ({success: false}, 404)", async () => {
		expect(await test()).toEqual({
			status: 'OK',
			message: expect.stringMatching(/^Connection successful: /),
		});
		expect(ctx.emu.requests.map((r) => [r.path, r.status])).toEqual([
			['/wl/acme-saas/get-user-session-token', 404],
		]);
	});

	it.each([
		['a 404 HTML page', 404, 'text/html', '<html><body><h1>Not Found</h1></body></html>'],
		['an empty 200', 200, 'text/plain', ''],
		['another JSON API 404', 404, 'application/json', '{"error":"not found"}'],
		['a 200 HTML page', 200, 'text/html', '<!doctype html><title>App</title>'],
	])('fails on %s from another server, naming Base URL', async (_name, status, type, body) => {
		const stub = await stubServer(status, type, body);
		try {
			const result = await test({ baseUrl: stub.baseUrl, masterToken: 'wrong' });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^Base URL did not answer like Albato's partner API/);
			expect(stub.seen).toEqual(['POST /wl/acme-saas/get-user-session-token']);
		} finally {
			await stub.close();
		}
	});

	it('fails with the 401 message for a wrong master token on the emulator', async () => {
		const result = await test({ masterToken: 'nope-nope-nope' });
		expect(result).toEqual({ status: 'Error', message: expect.stringMatching(/401 "Invalid/) });
	});
});
