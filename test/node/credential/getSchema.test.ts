/** Credential → Get Schema: the partner fields. */
import { runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Credential → Get Schema', () => {
	it('Get Schema returns the partner fields', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'credential',
			operation: 'getSchema',
			partnerId: 201,
		});
		expect(run.calls).toEqual(['GET /credentials/201/meta']);
		expect((run.json[0].fields as Array<{ id: string }>).map((field) => field.id)).toEqual([
			'apiUrl',
			'apiKey',
			'region',
		]);
	});
});
