/**
 * Installation → Get Many: filters given by expressions (a number as title text, an empty
 * Solution).
 */

import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Installation → Get Many: filters', () => {
	it('a Title Contains that an expression gives as a number is read as text', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { title: '={{ 5001 }}' },
		});
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([]);
		const acme = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { title: 'ACME', solutionId: byId('list', '101') },
		});
		expect(acme.json.map((installation) => installation.id)).toEqual([5001]);
	});

	it('an empty Solution filter means no filter', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { solutionId: byId('list', '') },
		});
		expect(run.json.map((installation) => installation.id)).toEqual([5001, 5002]);
	});
});
