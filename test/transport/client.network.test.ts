/**
 * The client on a connection that fails (a reset is not a timeout: the time spent tells them
 * apart), and the headers it sends, seen by a tiny recording service in this file.
 */
import http from 'http';
import type { AddressInfo } from 'net';

import { partnerCredential, runPartner, usePartnerEmulator } from '../support/partnerSetup';
import { runNode } from '../support/setup';

const ctx = usePartnerEmulator();

describe('a failed connection', () => {
	it('reset at once: reported as a lost connection, not as a timeout', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', reset: 'before' });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
			requestOptions: { maxRetries: 0, timeout: 5 },
		});
		expect(run.calls).toEqual(['GET /solution/apps']);
		expect(run.error?.message).toBe(
			'The request failed before the service answered: The connection to the server was closed unexpectedly, perhaps it is offline. You can retry the request immediately or wait and retry later.',
		);
		expect(run.error?.description).toBe(
			'GET /solution/apps. Check the Base URL of the credential and that the service is reachable.',
		);
	});
});

describe('what the client says it sends', () => {
	/** A service that records each request's headers and answers as Albato would (partner mode). */
	async function recordingService() {
		const seen: Array<{
			method?: string;
			url?: string;
			accept?: string;
			contentType?: string;
			body: string;
		}> = [];
		const server = http.createServer((req, res) => {
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString()));
			req.on('end', () => {
				seen.push({
					method: req.method,
					url: req.url,
					accept: req.headers.accept,
					contentType: req.headers['content-type'],
					body,
				});
				res.writeHead(200, { 'Content-Type': 'application/json' });
				const data = req.method === 'POST' ? { permanentToken: 'perm_recorded' } : [];
				res.end(JSON.stringify({ success: true, data }));
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		return {
			seen,
			baseUrl: `http://127.0.0.1:${port}`,
			close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
		};
	}

	it('JSON asked for on every call; a JSON body declared as such, and only with a body', async () => {
		const service = await recordingService();
		try {
			const run = await runPartner(
				ctx.emu,
				{ resource: 'installation', operation: 'getAll', returnAll: true },
				{ credential: partnerCredential(ctx.emu, { baseUrl: service.baseUrl }) },
			);
			expect(run.error).toBeUndefined();
			expect(service.seen).toEqual([
				{
					method: 'POST',
					url: '/wl/acme-saas/get-user-session-token',
					accept: 'application/json',
					contentType: 'application/json',
					body: '{"id":"cust-1"}',
				},
				{
					method: 'GET',
					url: '/solution/installation',
					accept: 'application/json',
					contentType: undefined,
					body: '',
				},
			]);
		} finally {
			await service.close();
		}
	});
});
