/** Installation → Get: the request sent (expand) and the output. */
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Installation → Get', () => {
	it('Get sends expand literally (the + reaches the service) and returns bundles', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'get',
			installationId: byId('list', 5001),
			includeBundles: true,
		});
		expect(ctx.emu.requests.at(-1)!.rawQuery).toBe('expand=app.templates,+bundles.steps');
		expect(Object.keys(run.json[0].bundles as object)).toEqual(['7001', '7002']);
	});

	it('Get without the option has no bundles', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'get',
			installationId: byId('id', 5002),
		});
		expect(run.json[0].bundles).toBeUndefined();
		expect(ctx.emu.requests.at(-1)!.rawQuery).toBe('');
	});
});
