/**
 * Installation → Get Many: the end user's installations, filtered by title, solution and status.
 */
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, initechInstallParams, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

const install = initechInstallParams;

describe('Installation → Get Many', () => {
	it('Get Many lists only the end user’s installations, filtered', async () => {
		const all = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
		});
		expect(all.json.map((installation) => installation.id)).toEqual([5001, 5002]);
		const paused = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'paused' },
		});
		expect(paused.json.map((installation) => installation.id)).toEqual([5002]);
		const other = await runNode(
			ctx.emu,
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ token: ctx.emu.token({ sub: 'user-2' }) },
		);
		expect(other.json.map((installation) => installation.id)).toEqual([5003]);
	});

	it('Get Many filters by solution, picked with the solution locator', async () => {
		await runNode(
			ctx.emu,
			install({
				solutionId: byId('id', 102),
				credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
				templateIds: [1021],
				title: 'Shop',
			}),
		);
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { solutionId: byId('list', 102) },
		});
		expect(run.json.map((installation) => installation.title)).toEqual(['Shop']);
	});

	it('Get Many filters by status with detail calls when the list has no status', async () => {
		ctx.emu.setVariants({ listWithoutStatus: true });
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			filters: { status: 'active' },
		});
		expect(run.json.map((installation) => installation.id)).toEqual([5001]);
		expect(run.calls).toEqual([
			'GET /solution/installation',
			'GET /solution/installation/5001',
			'GET /solution/installation/5002',
		]);
	});
});
