/**
 * The trigger with the Partner API credential after its End User ID changed: a new baseline, no
 * invented events.
 */
import type { IDataObject } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { pollContext } from '../../harness';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../support/partnerSetup';
import { byId } from '../support/setup';

const ctx = usePartnerEmulator();

const items = (...customers: string[]) => customers.map((customer) => ({ customer }));

describe('the trigger after its End User ID changed', () => {
	const trigger = new AlbatoSolutionsTrigger();
	const install = async (customer: string, title: string) => {
		const run = await runPartner(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'create',
				solutionId: byId('id', 101),
				title,
				connectionSettingsMode: 'json',
				credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
				templateIds: [1011],
			},
			{ inputItems: items(customer) },
		);
		expect(run.error).toBeUndefined();
	};
	const poll = async (staticData: IDataObject, endUserId: string) =>
		await trigger.poll.call(
			pollContext({
				nodeType: trigger,
				parameters: {
					authentication: 'partnerApi',
					endUserId,
					events: ['installationCreated', 'installationRemoved'],
					solutionId: { __rl: true, mode: 'id', value: '' },
				},
				credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
				staticData,
				mode: 'trigger',
			}),
		);

	it("starts a new baseline: the new user's installations are not 'created', the old user's not 'removed'", async () => {
		await addUsers(ctx.emu, ['c-1', 'c-2']);
		await install('c-1', 'Of c-1');
		await install('c-2', 'Of c-2');
		const staticData: IDataObject = {};
		expect(await poll(staticData, 'c-1')).toBeNull(); // the baseline, as c-1
		expect(await poll(staticData, 'c-2')).toBeNull(); // was: "Of c-2" created, "Of c-1" removed
		await install('c-2', 'New of c-2');
		const events = await poll(staticData, 'c-2');
		expect(events?.[0].map((item) => [item.json.event, item.json.title])).toEqual([
			['installationCreated', 'New of c-2'],
		]);
	});
});
