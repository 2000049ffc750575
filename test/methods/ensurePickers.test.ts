/**
 * Installation → Ensure → Field Values: the Step and Field pickers, through
 * n8n-core's LoadOptionsContext against the emulator, under both credentials. They read the chosen
 * automation from the end user's installation with Ensure's title, else from another installation
 * of the solution, and say which; with neither, they say what to do.
 */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { loadOptionsContext } from '../../harness';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import {
	addUsers,
	installFor,
	partnerCredential,
	usePartnerEmulator,
} from '../support/partnerSetup';
import { byId } from '../support/setup';

const ctx = usePartnerEmulator();
const node = new AlbatoSolutions();
const calls = (from: number) =>
	ctx.emu.requests
		.slice(from)
		.filter((r) => !/\/wl\//.test(r.path))
		.map((r) => `${r.method} ${r.path}`);

type Picker = 'getEnsureSteps' | 'getEnsureFields';

const credentials: Array<{
	name: string;
	/**
	 * The end user's installations of solution 101 are titled so; the first is made in beforeEach.
	 */
	own: string;
	setUp: () => Promise<void>;
	auth: () => {
		parameters: INodeParameters;
		credentials: Record<string, ICredentialDataDecryptedObject>;
	};
}> = [
	{
		name: 'Access Token',
		own: 'Leads for ACME',
		setUp: async () => {},
		auth: () => ({
			parameters: {},
			credentials: { albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: ctx.token } },
		}),
	},
	{
		name: 'Partner API',
		own: 'Leads',
		setUp: async () => {
			await addUsers(ctx.emu, ['c-1']);
			await installFor(ctx.emu, 'c-1', 'Leads');
		},
		auth: () => ({
			parameters: { authentication: 'partnerApi', endUserId: 'c-1' },
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		}),
	},
];

describe.each(credentials)('Ensure → Field Values pickers ($name)', ({ own, setUp, auth }) => {
	beforeEach(setUp);

	async function pick(
		method: Picker,
		title: string,
		entry: Record<string, unknown>,
		solution: number | '' = 101,
	) {
		const { parameters, credentials: given } = auth();
		const context = loadOptionsContext({
			nodeType: node,
			parameters: {
				...parameters,
				resource: 'installation',
				operation: 'ensure',
				solutionId: byId('list', solution),
				title,
				desiredFields: { field: [{ automation: '', step: '', code: '', value: '', ...entry }] },
			},
			credentials: given,
			path: `parameters.desiredFields.field[0].${method === 'getEnsureSteps' ? 'step' : 'code'}`,
		});
		return await node.methods.loadOptions[method].call(context);
	}

	it('steps of the automation in the installation with this title, by title, saying where from', async () => {
		const id = [...ctx.emu.state.installations.values()].find((i) => i.title === own)!.id;
		const before = ctx.emu.requests.length;
		const steps = await pick('getEnsureSteps', own, { automation: 1011 });
		expect(steps).toEqual([
			{
				name: 'New lead in CRM',
				value: 'New lead in CRM',
				description: `Fields: Lead source, Minimum score, Only new leads. From installation "${own}" (${id}).`,
			},
			{
				name: 'Send welcome email',
				value: 'Send welcome email',
				description: `Fields: Subject, Mailing list, Delay, minutes, Double opt-in. From installation "${own}" (${id}).`,
			},
		]);
		expect(calls(before)).toEqual([
			'GET /solution/installation',
			`GET /solution/installation/${id}`,
			'GET /bundle/data',
		]);
	});

	it('fields of the step by code, labelled with their label and code', async () => {
		const fields = await pick('getEnsureFields', own, {
			automation: 1011,
			step: 'Send welcome email',
		});
		expect(fields.map(({ name, value }) => ({ name, value }))).toEqual([
			{ name: 'Subject (subject)', value: 'subject' },
			{ name: 'Mailing list (listId)', value: 'listId' },
			{ name: 'Delay, minutes (cf__4c2d9e8f0a1b4c3d)', value: 'cf__4c2d9e8f0a1b4c3d' },
			{ name: 'Double opt-in (doubleOptIn)', value: 'doubleOptIn' },
		]);
		expect(fields[2].description).toMatch(/^Now 15 in installation "/);
	});

	it('a Field typed as its label (as Step\'s message advises) is that field\'s value: shown as "Subject (subject)", not red', async () => {
		const fields = await pick('getEnsureFields', own, {
			automation: 1011,
			step: 'Send welcome email',
			code: 'Subject',
		});
		expect(fields.map(({ name, value }) => ({ name, value }))).toEqual([
			{ name: 'Subject (subject)', value: 'Subject' },
			{ name: 'Mailing list (listId)', value: 'listId' },
			{ name: 'Delay, minutes (cf__4c2d9e8f0a1b4c3d)', value: 'cf__4c2d9e8f0a1b4c3d' },
			{ name: 'Double opt-in (doubleOptIn)', value: 'doubleOptIn' },
		]);
	});

	it('for a title the end user has no installation with: from another installation of the solution, said so', async () => {
		const steps = await pick('getEnsureSteps', 'A new customer', { automation: 1011 });
		expect(steps.map((step) => step.value)).toEqual(['New lead in CRM', 'Send welcome email']);
		expect(steps[0].description).toMatch(
			/From another installation of the solution, "[^"]+" \(\d+\)\.$/,
		);
	});

	it('reads the same steps when the list says only id and title, or ids are text', async () => {
		ctx.emu.setVariants({ listWithoutStatus: true, stringIds: true, wrapLists: true });
		const steps = await pick('getEnsureSteps', own, { automation: 1011 });
		expect(steps.map((step) => step.value)).toEqual(['New lead in CRM', 'Send welcome email']);
		expect(steps[0].description).toMatch(new RegExp(`From installation "${own}" \\(\\d+\\)\\.$`));
	});

	it('sends nothing while the solution or the automation is not chosen', async () => {
		const before = ctx.emu.requests.length;
		expect(await pick('getEnsureSteps', own, { automation: '' })).toEqual([]);
		expect(await pick('getEnsureSteps', own, { automation: 1011 }, '')).toEqual([]);
		expect(await pick('getEnsureFields', own, { automation: 1011, step: '' })).toEqual([]);
		expect(calls(before)).toEqual([]);
	});

	it('with no installation of the solution at all: says where the steps can come from', async () => {
		await expect(pick('getEnsureSteps', 'Anything', { automation: 1021 }, 102)).rejects.toThrow(
			'No installation of solution 102 has automation 1021 yet, so its steps and fields cannot be listed (Albato shows them only in an installation). Type them instead: switch Step to Expression',
		);
	});
});
