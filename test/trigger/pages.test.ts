/** The trigger on a paged list. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';
import { useEmulator } from '../support/setup';

const ctx = useEmulator();

describe('the trigger on a paged list', () => {
	const poll = async (staticData: IDataObject) => {
		const context: IPollFunctions = pollContext({
			nodeType: new AlbatoSolutionsTrigger(),
			parameters: {
				events: [
					'installationCreated',
					'installationStarted',
					'installationPaused',
					'installationRemoved',
				],
			},
			credentials: {
				albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.emu.token() },
			},
			staticData,
			mode: 'trigger',
		});
		const output = await new AlbatoSolutionsTrigger().poll.call(context);
		return output ? output[0].map((item) => [item.json.event, item.json.installationId]) : [];
	};

	it('a page that fails fails the poll: nothing reported removed, the baseline kept', async () => {
		ctx.emu.setVariants({ pagination: 'link' });
		const staticData: IDataObject = {};
		expect(await poll(staticData)).toEqual([]);
		const baseline = JSON.stringify(staticData);
		ctx.emu.faults.add({
			method: 'GET',
			path: '/solution/installation',
			query: /(^|&)page=2(&|$)/,
			status: 500,
		});
		await expect(poll(staticData)).rejects.toThrow(/Emulated fault: 500/);
		expect(JSON.stringify(staticData)).toBe(baseline);
		expect(await poll(staticData)).toEqual([]);
		ctx.emu.removeInstallation(5002);
		expect(await poll(staticData)).toEqual([['installationRemoved', 5002]]);
	});
});
