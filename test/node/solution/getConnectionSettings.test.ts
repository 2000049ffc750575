/** Solution → Get Connection Settings: the values sent, what is missing, auto-selection. */
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Solution → Get Connection Settings', () => {
	it('Get Connection Settings sends the chosen values and reports what is missing', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getConnectionSettings',
			solutionId: byId('list', 101),
			credentialData: '{"crm": "hubspot"}',
		});
		expect(run.error).toBeUndefined();
		const [result] = run.json;
		expect(result.complete).toBe(false);
		expect((result.missing as Array<{ id: string }>).map((step) => step.id)).toEqual([
			'hubspotPipeline',
			'mailer',
		]);
		expect(result.credentialData).toEqual({ crm: 'hubspot' });
		const request = ctx.emu.requests.at(-1)!;
		expect(request.rawQuery).toBe('credentialData[crm]=hubspot');
	});

	it('Get Connection Settings auto-selects single values level by level', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getConnectionSettings',
			solutionId: byId('id', 103),
			credentialData: '{"helpdesk": "zendesk", "chat": "slack"}',
			options: { autoSelectSingle: true },
		});
		expect(run.json[0]).toMatchObject({
			complete: true,
			autoSelected: ['zendeskBrand'],
			credentialData: { helpdesk: 'zendesk', zendeskBrand: 'main', chat: 'slack' },
		});
		expect(run.calls).toEqual([
			'GET /solution/103/credentialists',
			'GET /solution/103/credentialists',
		]);
	});

	it('tolerates plain-string values and bare bodies', async () => {
		ctx.emu.setVariants({ plainValues: true, bare: true });
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getConnectionSettings',
			solutionId: byId('id', 102),
			credentialData: '{"shop": "shopify", "sheetsAccount": "primary"}',
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			complete: true,
			credentialData: { shop: 'shopify', sheetsAccount: 'primary' },
		});
	});
});
