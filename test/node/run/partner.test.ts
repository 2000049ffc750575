/**
 * Run → Get Many with the Albato Partner API credential: the End User ID's token, and their offset.
 */
import { runPartner, usePartnerEmulator, TOKEN_PATH } from '../../support/partnerSetup';
import { byId } from '../../support/setup';

const ctx = usePartnerEmulator();

async function customerWithRuns(id: string, timezoneOffset: number) {
	const response = await fetch(`${ctx.emu.baseUrl}/wl/${ctx.emu.partner.name}/add-user`, {
		method: 'POST',
		headers: {
			Authorization: `Basic ${ctx.emu.partner.masterToken}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ id, timezoneOffset }),
	});
	expect(response.status).toBe(200);
	ctx.emu.state.installations.get(5002)!.userId = `${ctx.emu.partner.name}:${id}`;
	ctx.emu.recordRun({ bundleId: 7003, outcome: 'failed', dateCreated: '2024-07-01 12:00:00' });
	ctx.emu.requests.length = 0;
}

describe('Run → Get Many in partner mode', () => {
	it("acts as the End User ID; the account's offset gives the same instants as UTC", async () => {
		await customerWithRuns('cust-run', -180);
		const params = {
			resource: 'run',
			operation: 'getAll',
			installationId: byId('id', 5002),
			returnAll: true,
			filters: { status: 'failed' },
		};
		const utc = await runPartner(ctx.emu, params, { inputItems: [{ customer: 'cust-run' }] });
		expect(utc.error).toBeUndefined();
		expect(utc.json.map((r) => r.dateCreated)).toEqual(['2024-07-01T12:00:00.000Z']);
		expect(utc.calls.filter((c) => TOKEN_PATH.test(c.split(' ')[1]))).toHaveLength(1);

		ctx.emu.setVariants({ runDates: 'userOffset' });
		const shifted = await runPartner(
			ctx.emu,
			{ ...params, options: { dateOffsetMinutes: -180 } },
			{ inputItems: [{ customer: 'cust-run' }] },
		);
		expect(shifted.json[0].dateCreatedAsSent).toBe('2024-07-01 09:00:00');
		expect(shifted.json.map((r) => r.dateCreated)).toEqual(['2024-07-01T12:00:00.000Z']);
	});
});
