/**
 * Credential → Create whose outcome is unknown (answer lost, 5xx, 2xx not JSON): the error says it
 * may have applied and it is never sent again.
 */

import { runNode, useEmulator, VALID } from '../../support/setup';

const ctx = useEmulator();

const posts = (calls: string[]) => calls.filter((call) => call.startsWith('POST'));

describe('a POST that may have been applied says so (it is never sent again)', () => {
	const credential = { ...VALID.credential, requestOptions: { maxRetries: 3, retryBudget: 10 } };
	it.each([
		['answer lost after creating', { reset: 'after' as const }],
		['5xx', { status: 502 }],
		['2xx not JSON', { malformedJson: true }],
	])(
		'Credential → Create, %s: "may have applied it, check before running it again", not "check the Base URL"/"try again later"',
		async (_name, rule) => {
			ctx.emu.faults.add({ method: 'POST', path: '/credentials/201', ...rule });
			const run = await runNode(ctx.emu, credential);
			expect(posts(run.calls)).toHaveLength(1);
			expect(run.error?.description).toMatch(/may have applied it.*check before/i);
			expect(run.error?.description).not.toMatch(/Check the Base URL|try again later/);
		},
	);

	it('200 with success: false is a refusal, not "may have applied it"', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/credentials/201', successFalse: true });
		const run = await runNode(ctx.emu, credential);
		expect(run.error?.httpCode).toBe('200');
		expect(run.error?.description).not.toMatch(/may have applied it/);
	});

	it('connection refused (never sent) keeps the plain network error', async () => {
		const run = await runNode(ctx.emu, credential, { baseUrl: 'http://127.0.0.1:1' });
		expect(run.error?.description).toMatch(/Check the Base URL/);
	});
});
