/**
 * A call's own secrets: the values Set Own Connection sends, and the link token a sharing's answer
 * holds (its `token` key), never reach an error, even when the service quotes them. The quoting
 * service is a tiny HTTP server in this file (the emulator never quotes them).
 */
import http from 'http';
import type { AddressInfo } from 'net';
import type { INodeParameters } from 'n8n-workflow';

import { runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

const SECRET = 'cd98e8a3de9a7ee77daeb0e90bae570f';
const LINK_TOKEN = 'lt_5f0c1d2e3a4b';

/**
 * Answers every request 400 (text) with `answer(body)`, `body` being the request's body; a GET of a
 * path in `reads` gets 200 with that JSON instead.
 */
async function quotingService(
	answer: (body: string) => string,
	reads: Record<string, unknown> = {},
) {
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => {
			const read = req.method === 'GET' ? reads[req.url ?? ''] : undefined;
			if (read !== undefined) {
				res.writeHead(200, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify(read));
			} else {
				res.writeHead(400, { 'Content-Type': 'text/plain' });
				res.end(answer(body));
			}
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

async function failWith(
	parameters: INodeParameters,
	answer: (body: string) => string,
	reads?: Record<string, unknown>,
) {
	const service = await quotingService(answer, reads);
	try {
		const run = await runNode(ctx.emu, parameters, { baseUrl: service.baseUrl });
		expect(run.error?.httpCode).toBe('400');
		return run.error!;
	} finally {
		await service.close();
	}
}

describe("a call's own secrets in a service's error", () => {
	it('Set Own Connection: the values sent are hidden', async () => {
		const error = await failWith(
			{
				resource: 'endUser',
				operation: 'setOwnConnection',
				ownPartnerName: 'acme-saas',
				ownFieldsMode: 'json',
				ownFields: JSON.stringify({ accessToken: SECRET }),
			},
			(body) => `cannot store ${body}`,
		);
		expect(error.message).toBe('cannot store {"fields":{"accessToken":"[redacted]"}}');
	});

	it("Credential → Create: the secret fields' values are hidden, the others shown", async () => {
		const meta = {
			success: true,
			data: {
				fields: [
					{ id: 'apiUrl', type: 0, label: 'API URL' },
					{ id: 'apiKey', type: 3, label: 'API key', required: true },
				],
			},
		};
		const error = await failWith(
			{
				resource: 'credential',
				operation: 'create',
				partnerId: 201,
				connectionName: 'Initech CRM',
				fieldsMode: 'json',
				fields: JSON.stringify({ apiUrl: 'https://crm.initech.example', apiKey: SECRET }),
			},
			(body) => `invalid credentials ${body}`,
			{ '/credentials/201/meta': meta },
		);
		expect(error.message).toBe(
			'invalid credentials {"apiUrl":"https://crm.initech.example","apiKey":"[redacted]","title":"Initech CRM"}',
		);
	});

	it('Get Link Status: the link token of a quoted sharing is hidden', async () => {
		const error = await failWith(
			{ resource: 'credential', operation: 'getLinkStatus', sharingId: 61 },
			() => `sharing 61 is broken: {"id": 61, "token": "${LINK_TOKEN}"}`,
		);
		expect(error.message).toBe('sharing 61 is broken: {"id": 61, "token": "[redacted]"}');
	});
});
