/**
 * Installation → Ensure when a later step's update is refused: the error says which steps were
 * already applied (withSentence), keeping the service's message, status and description.
 */
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Installation → Ensure, a step refused after another was applied', () => {
	it('fails naming the step already applied; running it again changes only what still differs', async () => {
		const parameters = {
			resource: 'installation',
			operation: 'ensure',
			solutionId: byId('id', 101),
			title: 'Leads for Globex',
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
			templateIds: [1011],
			desiredFields: {
				field: [
					{ automation: 1011, step: 'New lead in CRM', code: 'cf__8ad75c3e1f2b4a90', value: 'ads' },
					{ automation: 1011, step: 'Send welcome email', code: 'subject', value: 'Hello' },
				],
			},
			desiredStatus: 'paused',
			requestOptions: { concurrency: 1, maxRetries: 0 },
		};
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9006', status: 422 });
		const first = await runNode(ctx.emu, parameters);
		expect(first.error?.httpCode).toBe('422');
		expect(first.error?.description).toMatch(
			/^PUT \/bundle\/data\/9006 → 422\. .+ Applied before the failure: step 9005 \(cf__8ad75c3e1f2b4a90\)\. Running Ensure again changes only what still differs\.$/,
		);
		expect(first.calls.filter((call) => call.startsWith('PUT'))).toEqual([
			'PUT /bundle/data/9005',
			'PUT /bundle/data/9006',
		]);

		const again = await runNode(ctx.emu, parameters);
		expect(again.error).toBeUndefined();
		expect(again.calls.filter((call) => call.startsWith('PUT'))).toEqual(['PUT /bundle/data/9006']);
	});
});
