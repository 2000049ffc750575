/**
 * Bundle Data → Update: fields changed, mapper values sent, an active installation refused, errors
 * paired.
 */
import { byId, runNode, useEmulator, VALID } from '../../support/setup';

const ctx = useEmulator();

describe('Bundle Data → Update', () => {
	const update = (overrides: Record<string, unknown> = {}) => ({
		...VALID.update,
		fieldValues: '{"subject": "Hello from n8n", "doubleOptIn": true}',
		...overrides,
	});

	it('changes the fields of a paused installation and the next read shows them', async () => {
		const run = await runNode(ctx.emu, update());
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			id: 9006,
			bundleId: 7003,
			installationId: 5002,
			updated: { subject: 'Hello from n8n', doubleOptIn: true },
		});
		expect(run.calls).toEqual(['PUT /bundle/data/9006']);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({
			data: { subject: 'Hello from n8n', doubleOptIn: true },
		});
		const read = await runNode(ctx.emu, {
			resource: 'bundleData',
			operation: 'getAll',
			installationId: byId('id', 5002),
			scope: 'bundle',
			bundleId: 7003,
		});
		const fields = read.json[1].data as Array<{ name: string; value: unknown }>;
		expect(fields.find((field) => field.name === 'subject')?.value).toBe('Hello from n8n');
	});

	it('sends the values picked in the field mapper, leaving out untouched fields', async () => {
		const run = await runNode(
			ctx.emu,
			update({
				fieldValuesMode: 'mapper',
				fieldMapper: {
					mappingMode: 'defineBelow',
					value: { cf__4c2d9e8f0a1b4c3d: 30, subject: null },
				},
			}),
		);
		expect(run.error).toBeUndefined();
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ data: { cf__4c2d9e8f0a1b4c3d: 30 } });
	});

	it('fails clearly on an active installation, changing nothing', async () => {
		const run = await runNode(
			ctx.emu,
			update({ installationId: byId('id', 5001), bundleId: 7001, stepId: 9002 }),
		);
		expect(run.error?.message).toMatch(/pause the installation first/i);
		expect(run.error?.description).toMatch(/If Installation Is Active/);
		expect(
			ctx.emu.state.bundleData.get(9002)!.fields.find((field) => field.name === 'subject')!.value,
		).toBe('Welcome aboard');
	});

	it('under continueOnFail, the failed item carries the error and stays paired', async () => {
		const run = await runNode(
			ctx.emu,
			update({
				installationId: byId('id', '={{ $json.installation }}'),
				bundleId: '={{ $json.bundle }}',
				stepId: '={{ $json.step }}',
			}),
			{
				continueOnFail: true,
				inputItems: [
					{ installation: 5001, bundle: 7001, step: 9002 },
					{ installation: 5002, bundle: 7003, step: 9006 },
				],
			},
		);
		expect(run.json[0].error).toMatch(/pause the installation first/i);
		expect(run.json[1]).toMatchObject({ id: 9006 });
		expect(run.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('an unknown field code is the service’s 422, passed on', async () => {
		const run = await runNode(ctx.emu, update({ fieldValues: '{"nope": 1}' }));
		expect(run.error?.httpCode).toBe('422');
		expect(run.error?.message).toMatch(/nope/);
	});
});
