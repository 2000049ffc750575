import { byId, runNode, useEmulator } from './setup';

const ctx = useEmulator();

describe('Solution', () => {
	it('Get Many lists the latest published version of each solution, with Limit', async () => {
		const all = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getAll',
			returnAll: true,
		});
		expect(all.error).toBeUndefined();
		expect(all.json.map((s) => [s.id, s.version])).toEqual([
			[101, 2],
			[102, 1],
			[103, 1],
		]);
		expect(all.calls).toEqual(['GET /solution/apps']);
		const limited = await runNode(ctx.emu, { resource: 'solution', operation: 'getAll', limit: 2 });
		expect(limited.json).toHaveLength(2);
		expect(limited.pairedItems).toEqual([{ item: 0 }, { item: 0 }]);
	});

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

	it('Get Templates returns one item per template of the solution', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getTemplates',
			solutionId: byId('id', 101),
		});
		expect(run.json.map((t) => t.id)).toEqual([1011, 1012]);
		expect(run.json[0].parentAutomation).toEqual({ id: 3011, title: 'Lead welcome flow' });
		expect(run.calls).toEqual(['GET /solution/101/templates']);
	});

	it('an unknown solution is a NodeApiError with the service message and status', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'solution',
			operation: 'getTemplates',
			solutionId: byId('id', 104),
		});
		expect(run.error?.message).toMatch(/not found|104/i);
		expect(run.error?.httpCode).toBe('404');
		expect(run.error?.description).toMatch(/GET \/solution\/104\/templates → 404/);
	});
});
