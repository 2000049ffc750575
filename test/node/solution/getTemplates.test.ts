/** Solution → Get Templates: one item per template, and an unknown solution. */
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Solution → Get Templates', () => {
	it('Get Templates returns one item per template of the solution', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getTemplates',
			solutionId: byId('id', 101),
		});
		expect(run.json.map((t) => t.id)).toEqual([1011, 1012]);
		expect(run.json[0].parentAutomation).toEqual({ id: 3011, title: 'Lead welcome flow' });
		expect(run.calls).toEqual(['GET /solution/101/templates']);
	});

	it('an unknown solution is a NodeApiError with the service message and status', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getTemplates',
			solutionId: byId('id', 104),
		});
		expect(run.error?.message).toMatch(/not found|104/i);
		expect(run.error?.httpCode).toBe('404');
		expect(run.error?.description).toMatch(/GET \/solution\/104\/templates → 404/);
	});
});
