/**
 * Installation → Ensure → Field Values → Automation offers the templates chosen in Template Names
 * (all of the solution's while none is chosen), with the same value type as Template Names (a
 * number), so an example's saved `1011` shows as chosen, not red.
 */
import { readFileSync } from 'fs';
import { join } from 'path';

import { loadOptionsContext } from '../../harness';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { useEmulator } from '../support/setup';

const ctx = useEmulator();
const node = new AlbatoSolutions();

const automationOptions = async (templateIds: Array<string | number>) =>
	await node.methods.loadOptions.getEnsureTemplates.call(
		loadOptionsContext({
			nodeType: node,
			parameters: {
				resource: 'installation',
				operation: 'ensure',
				solutionId: { __rl: true, mode: 'id', value: '101' },
				templateIds,
				desiredFields: { field: [{ automation: '' }] },
			},
			path: 'parameters.desiredFields.field[0].automation',
			credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
		}),
	);

describe('Ensure → Field Values → Automation', () => {
	it('offers only the templates chosen in Template Names', async () => {
		expect((await automationOptions([1011])).map((option) => option.value)).toEqual([1011]);
	});

	it('offers every template of the solution while Template Names is empty', async () => {
		expect((await automationOptions([])).map((option) => option.value)).toEqual([1011, 1012]);
	});

	it("fleet-change's shipped Automation has the list's value type", async () => {
		const example = JSON.parse(
			readFileSync(join(__dirname, '../../examples/fleet-change.workflow.json'), 'utf8'),
		) as {
			nodes: Array<{
				name: string;
				parameters: {
					templateIds: Array<string | number>;
					desiredFields: { field: Array<{ automation: unknown }> };
				};
			}>;
		};
		const ensure = example.nodes.find((n) => n.name === 'Ensure new subject')!;
		const values = (await automationOptions(ensure.parameters.templateIds)).map((o) => o.value);
		for (const field of ensure.parameters.desiredFields.field)
			expect(values).toContain(field.automation);
	});
});
