/**
 * The client on bodies that are not what they should be: malformed JSON, success: false, a 300, a
 * hanging request.
 */
import { runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

describe('bodies that are not what they should be', () => {
	it('malformed JSON is an error that says so', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', malformedJson: true });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(run.error?.message).toBe('The service answered with a body that is not valid JSON');
	});

	it('200 with success: false is an error', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', successFalse: true });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(run.error).toBeDefined();
		expect(run.error?.httpCode).toBe('200');
	});

	it('a 300 is no success: its body is an error, not data', async () => {
		// In the `message` style the body has no success flag: read as a 2xx it would pass as data.
		ctx.emu.setErrorStyle('message');
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', status: 300 });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(run.json).toEqual([]);
		expect(run.error?.httpCode).toBe('300');
		expect(run.error?.message).toBe('Emulated fault: 300');
	});

	it('a hanging request fails after the timeout with a message that says so', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/apps', delayMs: 1500 });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			requestOptions: { timeout: 0.2, maxRetries: 0 },
		});
		expect(run.error?.message).toBe('The service did not answer within 200 ms');
		expect(run.error?.description).toMatch(/Raise the Timeout option/);
	});
});
