/** The emulator over HTTPS (custom methods included) and its optional rate limit. */
import { readFileSync } from 'fs';
import https from 'https';

import { startEmulator, type Emulator } from '../../emulator';
import { makeTestCertificate, type TestCertificate } from '../../scripts/lib/tlsCert';
import { call } from './helpers';

describe('HTTPS', () => {
	let cert: TestCertificate;
	let emu: Emulator;
	beforeAll(async () => {
		cert = makeTestCertificate();
		emu = await startEmulator({
			tls: { key: readFileSync(cert.keyFile), cert: readFileSync(cert.certFile) },
		});
	});
	afterAll(async () => {
		await emu.close();
		cert.remove();
	});

	const send = (method: string, path: string, agent: https.Agent) =>
		new Promise<{ status: number; body: { data?: { status?: number } } }>((resolve, reject) => {
			const req = https.request(
				`${emu.baseUrl}${path}`,
				{ method, agent, headers: { Authorization: `Bearer ${emu.token()}` } },
				(res) => {
					let text = '';
					res.on('data', (chunk: Buffer) => (text += chunk.toString()));
					res.on('end', () =>
						resolve({
							status: res.statusCode ?? 0,
							body: JSON.parse(text) as { data?: { status?: number } },
						}),
					);
				},
			);
			req.on('error', reject);
			req.end();
		});

	it('serves GET, PAUSE and PLAY to a client that trusts the certificate, with and without keep-alive', async () => {
		expect(emu.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
		for (const keepAlive of [true, false]) {
			const agent = new https.Agent({ keepAlive, ca: readFileSync(cert.caFile) });
			expect((await send('GET', '/solution/installation/5001', agent)).status).toBe(200);
			expect((await send('PAUSE', '/solution/installation/5001', agent)).body.data?.status).toBe(0);
			expect((await send('PLAY', '/solution/installation/5001', agent)).body.data?.status).toBe(1);
			agent.destroy();
		}
		expect(emu.requests.map((entry) => entry.method)).toEqual([
			'GET',
			'PAUSE',
			'PLAY',
			'GET',
			'PAUSE',
			'PLAY',
		]);
	});

	it('a client that does not trust it is refused (verification is on)', async () => {
		const agent = new https.Agent();
		await expect(send('GET', '/solution/apps', agent)).rejects.toThrow(/certificate/i);
	});
});

describe('rate limit', () => {
	let emu: Emulator;
	beforeAll(async () => {
		emu = await startEmulator();
	});
	afterAll(() => emu.close());
	beforeEach(() => emu.reset());

	it('serves maxConcurrent at once and answers 429 with Retry-After above it', async () => {
		emu.setRateLimit({ maxConcurrent: 2, retryAfterSeconds: 3, serviceMs: 100 });
		const answers = await Promise.all(
			Array.from({ length: 5 }, () => call(emu, 'GET', '/solution/installation/5001')),
		);
		const statuses = answers.map((answer) => answer.status).sort();
		expect(statuses).toEqual([200, 200, 429, 429, 429]);
		expect(answers.find((answer) => answer.status === 429)!.headers['retry-after']).toBe('3');
		expect(emu.rateLimit()).toMatchObject({
			maxConcurrent: 2,
			peak: 2,
			admitted: 2,
			rejected: 3,
			active: 0,
		});
		expect(emu.requests.filter((entry) => entry.fault === 'rate-limit')).toHaveLength(3);
		// Once the first two are answered, the next ones are served again.
		expect((await call(emu, 'GET', '/solution/installation/5001')).status).toBe(200);
	});

	it('is set, read and lifted through the control surface, and reset lifts it', async () => {
		const post = await call(emu, 'POST', '/__emulator/rate-limit', { body: { maxConcurrent: 10 } });
		expect(post.data).toMatchObject({ maxConcurrent: 10, retryAfterSeconds: 1, serviceMs: 0 });
		expect((await call(emu, 'GET', '/__emulator/rate-limit')).data).toMatchObject({
			maxConcurrent: 10,
			admitted: 0,
		});
		expect((await call(emu, 'DELETE', '/__emulator/rate-limit')).status).toBe(200);
		expect((await call(emu, 'GET', '/__emulator/rate-limit')).data).toBeNull();
		expect(
			(await call(emu, 'POST', '/__emulator/rate-limit', { body: { maxConcurrent: 0 } })).status,
		).toBe(400);
		emu.setRateLimit({ maxConcurrent: 1 });
		emu.reset();
		expect(emu.rateLimit()).toBeNull();
	});
});
