/**
 * A read the docs give as "GET | POST" (list-plans): GET, and after a 405 the same read as a POST,
 * still a read; any other failure of the GET is the call's failure, with no POST.
 */
import { PLANS } from '../../emulator/fixtures';
import { LIST_PLANS_PATH } from '../node/endUser/billingSetup';
import { runPartner, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();
const getPlans = { resource: 'endUser', operation: 'getPlans' };
const listPlans = (method: string) => `${method} /wl/${ctx.emu.partner.name}/list-plans`;

it('GET answered 405: the same read as a POST, which Preview sends as a read', async () => {
	ctx.emu.setVariants({ listPlansMethod: 'post' });
	const run = await runPartner(ctx.emu, { ...getPlans, requestOptions: { preview: true } });
	expect(run.error).toBeUndefined();
	expect(run.json).toHaveLength(PLANS.length);
	expect(run.calls).toEqual([listPlans('GET'), listPlans('POST')]);
});

it('GET failing otherwise (500): that failure, no POST', async () => {
	ctx.emu.faults.add({ method: 'GET', path: LIST_PLANS_PATH, status: 500, times: 10 });
	const run = await runPartner(ctx.emu, { ...getPlans, requestOptions: { maxRetries: 0 } });
	expect(run.error?.httpCode).toBe('500');
	expect(run.calls).toEqual([listPlans('GET')]);
});
