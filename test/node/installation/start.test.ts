/**
 * Installation → Start and Pause: PLAY and PAUSE per item, tolerant reading, another user's
 * installation.
 */
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Installation → Start and Pause', () => {
	it('Start sends PLAY and Pause sends PAUSE, per item, from expressions', async () => {
		const pause = await runNode(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'pause',
				installationId: byId('id', '={{ $json.id }}'),
			},
			{ inputItems: [{ id: 5001 }, { id: 5002 }] },
		);
		expect(pause.calls).toEqual([
			'PAUSE /solution/installation/5001',
			'PAUSE /solution/installation/5002',
		]);
		expect(pause.json.map((installation) => installation.status)).toEqual([0, 0]);
		expect(pause.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
		const start = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
		});
		expect(start.calls).toEqual(['PLAY /solution/installation/5002']);
		expect(start.json[0]).toMatchObject({ id: 5002, status: 1 });
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(1);
	});

	it('tolerates string ids and bare bodies', async () => {
		ctx.emu.setVariants({ stringIds: true, bare: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
		});
		expect(run.error).toBeUndefined();
		expect(String(run.json[0].id)).toBe('5002');
	});

	it('another user’s installation is a 404 with a hint', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5003),
		});
		expect(run.error?.httpCode).toBe('404');
		expect(run.error?.description).toMatch(/belongs to another end user/);
		expect(ctx.emu.state.installations.get(5003)!.status).toBe(0);
	});
});
