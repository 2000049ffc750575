/**
 * Partner mode's token call (`get-user-session-token`) changes nothing and is retried like a read:
 * its errors must never say "the service may have applied it, it was not sent again" (the advice
 * for an install or an add-user whose outcome is unknown). Driven through n8n-core against the
 * emulator.
 */
import type { FaultRule } from '../../emulator';
import {
	addUsers,
	runPartner,
	TOKEN_PATH,
	tokenCalls,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const FAST = { requestOptions: { maxRetries: 1, retryBudget: 5 } };

describe('a failed token call is described as the read it is', () => {
	it.each<[string, Partial<FaultRule>, RegExp, number]>([
		['500', { status: 500 }, /→ 500\. The service failed; try again later\./, 1],
		[
			'answer lost twice (retried once)',
			{ reset: 'after' },
			/get-user-session-token after 1 retry\. /,
			2,
		],
		[
			'2xx not JSON',
			{ malformedJson: true },
			/→ 200\. This call changes nothing; try again later\./,
			1,
		],
		[
			'2xx empty',
			{ emptyBody: true },
			/returned neither sessionToken, token nor permanentToken/,
			1,
		],
	])('End User → Get Token, %s', async (_name, rule, described, calls) => {
		await addUsers(ctx.emu, ['cust-1']);
		ctx.emu.faults.add({ method: 'POST', path: TOKEN_PATH, ...rule, times: 5 });
		const run = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'getToken', ...FAST },
			{ continueOnFail: true },
		);
		expect(run.pairedItems).toEqual([{ item: 0 }]);
		expect(String(run.json[0].message)).toMatch(described);
		expect(String(run.json[0].message)).not.toMatch(
			/may have applied|not sent again|not safe to repeat/,
		);
		expect(tokenCalls(run)).toBe(calls);
		expect(run.serialized).not.toContain(ctx.emu.partner.masterToken);
	});

	it('the token call of an Installation → Get Many (500): no "may have applied it"', async () => {
		await addUsers(ctx.emu, ['cust-1']);
		ctx.emu.faults.add({ method: 'POST', path: TOKEN_PATH, status: 500, times: 5 });
		const run = await runPartner(ctx.emu, {
			resource: 'installation',
			operation: 'getAll',
			returnAll: true,
			...FAST,
		});
		expect(run.error?.description).toMatch(
			/get-user-session-token → 500\. The service failed; try again later\./,
		);
		expect(run.calls).toEqual(['POST /wl/acme-saas/get-user-session-token']);
	});

	it('add-user (not safe to repeat) still says it may have been applied', async () => {
		ctx.emu.faults.add({ method: 'POST', path: /\/add-user$/, status: 500 });
		const run = await runPartner(ctx.emu, { resource: 'endUser', operation: 'create', ...FAST });
		expect(run.error?.description).toMatch(/may have applied it: it was not sent again/);
	});
});
