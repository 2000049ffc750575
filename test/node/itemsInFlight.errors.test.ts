/**
 * Items in Flight > 1 without Continue On Fail: the error names the later items that had already
 * completed.
 */

import { installParams, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

const installationsTitled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);

describe('without Continue On Fail, Items in Flight > 1', () => {
	it('the error names the later items that had already completed (installed), so a re-run is not blind', async () => {
		const params = {
			...installParams('={{ $json.title }}', {
				requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 4 },
			}),
			solutionId: { __rl: true, mode: 'id', value: '={{ $json.solution }}' },
		};
		ctx.emu.faults.add({ method: 'GET', path: '/solution/104/credentialists', delayMs: 150 });
		const run = await runNode(ctx.emu, params, {
			inputItems: [
				{ title: 'Draft', solution: 104 },
				{ title: 'Flight B', solution: 102 },
				{ title: 'Flight C', solution: 102 },
			],
		});
		expect(run.error).toBeDefined();
		expect(installationsTitled('Flight B')).toHaveLength(1);
		expect(installationsTitled('Flight C')).toHaveLength(1);
		expect(run.error?.description).toMatch(/items? 1, 2 .*completed/i);
	});
});
