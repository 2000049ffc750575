/**
 * Pickers in partner mode when End User ID gives nothing to act as: the message says what to do.
 * The editor resolves expressions before a picker runs, so {{ $json.customerId }} without input
 * data arrives empty; a raw expression arrives only from callers that do not resolve it.
 */
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { loadOptionsContext } from '../../harness';
import { partnerCredential, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const picker = (endUserId: unknown) =>
	loadOptionsContext({
		nodeType: new AlbatoSolutions(),
		parameters: {
			authentication: 'partnerApi',
			endUserId: endUserId as string,
			resource: 'installation',
			operation: 'create',
		},
		credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
	});

describe('End User ID with nothing to resolve in the editor', () => {
	it('an empty field: says it is empty (issue 33, point 10), sends nothing', async () => {
		const search = new AlbatoSolutions().methods.listSearch.searchSolutions;
		await expect(search.call(picker(''))).rejects.toThrow(/^End User ID is empty$/);
		expect(ctx.emu.requests).toEqual([]);
	});

	it.each([['resolved to null (n8n could not resolve it)', null]])(
		'%s: says it may be an expression and how to browse, sends nothing',
		async (_name, value) => {
			const search = new AlbatoSolutions().methods.listSearch.searchSolutions;
			const error = await search
				.call(picker(value))
				.catch((e: unknown) => e as Error & { description?: string });
			expect(error).toBeInstanceOf(Error);
			expect((error as Error).message).toBe(
				'End User ID has no value here (an expression has no input data in the editor). To browse, type a fixed End User ID, or run the previous node and then close and reopen this node.',
			);
			expect((error as { description?: string }).description).toMatch(
				/type a fixed End User ID.*or run the previous node/i,
			);
			expect(ctx.emu.requests).toEqual([]);
		},
	);
});
