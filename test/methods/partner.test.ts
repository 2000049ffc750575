/**
 * Pickers with the Partner API credential, through n8n-core's LoadOptionsContext against the
 * emulator.
 */
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { loadOptionsContext } from '../../harness';
import { addUsers, partnerCredential, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();
const calls = (from: number) => ctx.emu.requests.slice(from).map((r) => `${r.method} ${r.path}`);

beforeEach(async () => addUsers(ctx.emu, ['c-1']));

describe('pickers with the Partner API credential', () => {
	const picker = (endUserId: string) =>
		loadOptionsContext({
			nodeType: new AlbatoSolutions(),
			parameters: {
				authentication: 'partnerApi',
				endUserId,
				resource: 'installation',
				operation: 'create',
			},
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		});

	it('list as the End User ID, minting its token once', async () => {
		const search = new AlbatoSolutions().methods.listSearch.searchSolutions;
		const first = await search.call(picker('c-1'));
		expect(first.results.map((r) => r.value)).toEqual(['101', '102', '103', '105']);
		await search.call(picker('c-1'));
		expect(calls(0)).toEqual([
			'POST /wl/acme-saas/get-user-session-token',
			'GET /solution/apps',
			'GET /solution/apps',
		]);
		expect(ctx.emu.requests[1].user).toBe('acme-saas:c-1');
	});

	it('an expression End User ID: a message saying what to do, no request', async () => {
		const search = new AlbatoSolutions().methods.listSearch.searchSolutions;
		await expect(search.call(picker('={{ $json.customer }}'))).rejects.toThrow(
			/End User ID is an expression/,
		);
		expect(calls(0)).toEqual([]);
	});
});
