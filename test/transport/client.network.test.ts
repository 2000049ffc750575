/** The client on a connection that fails: a reset is not a timeout (the time spent tells them apart). */
import { runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

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
