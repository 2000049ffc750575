/** The onboarding example (the demo) runs end to end and leaves the service as the story says. */
import { join } from 'path';

import { startEmulator, type Emulator } from '../emulator';
import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { readExample, runExample } from './harness/examples';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(() => emu.close());

it('examples/customer-onboarding.workflow.json: the whole journey', async () => {
	const workflow = readExample(join(__dirname, '..', 'examples', 'customer-onboarding.workflow.json'));
	const token = emu.token();
	const result = await runExample(workflow, [new AlbatoSolutions()], { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: token } });
	for (const node of workflow.nodes) expect([node.name, result.error(node.name)]).toEqual([node.name, undefined]);

	const installation = [...emu.state.installations.values()].find((i) => i.title === 'Acme Corp – lead sync')!;
	expect(installation.status).toBe(1);
	const subject = [...emu.state.bundleData.values()]
		.filter((record) => installation.bundleIds.includes(record.bundleId))
		.flatMap((record) => record.fields)
		.find((field) => field.name === 'subject');
	expect(subject?.value).toBe('Welcome to Acme!');
	expect(result.output('Change email subject')[0].json).toMatchObject({ updated: { subject: 'Welcome to Acme!' } });
	const connection = result.output('Create partner connection')[0].json;
	expect(connection).toMatchObject({ title: 'Acme CRM connection' });
	expect(JSON.stringify(connection)).not.toContain('sk_demo_0123456789abcdef');
	expect(emu.requests.map((r) => r.method)).toEqual(
		expect.arrayContaining(['GET', 'POST', 'PLAY', 'PAUSE', 'PUT']),
	);
	expect(JSON.stringify(result.run)).not.toContain(token);
});
