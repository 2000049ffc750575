/** Solution → Get Many: the latest published version of each solution, with Limit. */
import { runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Solution → Get Many', () => {
	it('Get Many lists the latest published version of each solution, with Limit', async () => {
		const all = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(all.error).toBeUndefined();
		expect(all.json.map((s) => [s.id, s.version])).toEqual([
			[101, 2],
			[102, 1],
			[103, 1],
			[105, 1],
		]);
		expect(all.calls).toEqual(['GET /solution/apps']);
		const limited = await runNode(ctx.emu, { resource: 'solution', operation: 'getAll', limit: 2 });
		expect(limited.json).toHaveLength(2);
		expect(limited.pairedItems).toEqual([{ item: 0 }, { item: 0 }]);
	});
});
