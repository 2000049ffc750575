/**
 * Request Options → Preview, for every writing operation, with the access token and the partner
 * credential: the service is read as usual, no write reaches it (the request log), its state is
 * unchanged, and the output is the real run's (made next, from the same state) plus
 * `preview: true`, except what only the write itself makes (a new ID, a link). Unknown targets fail
 * as they would in a real run. The table must name every operation of the node.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { forTests } from '../../../nodes/AlbatoSolutions/actions';
import { setStatus } from '../../../nodes/shared/api/installation';
import type { AlbatoClient } from '../../../nodes/shared/transport/client';
import { addUsers, installFor, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { byId, type NodeRun, runNode } from '../../support/setup';
import { ensureParams, stateOf, withoutPreview, writesIn } from './fleetSetup';

const { resources } = forTests;

const ctx = usePartnerEmulator();
const PREVIEW = { requestOptions: { preview: true } };

interface Case {
	params: INodeParameters;
	/** Runs before the preview (e.g. a link to renew); may give parameters. */
	setup?: () => Promise<INodeParameters> | INodeParameters;
	partner?: boolean;
	inputItems?: IDataObject[];
	/** Output keys whose values only the write makes (IDs, links, the service's own dates); '*': and keys only the answer has. */
	madeByWrite?: string[];
}

const link = async () => {
	const made = await runNode(ctx.emu, {
		resource: 'credential',
		operation: 'createLink',
		linkPartnerId: 201,
		linkTitle: 'CRM',
	});
	return { sharingId: made.json[0].sharingId as number };
};

const WRITING: Record<string, Case> = {
	'installation.start': {
		params: { installationId: byId('id', 5002) },
		madeByWrite: ['dateUpdated'],
	},
	'installation.pause': {
		params: { installationId: byId('id', 5001) },
		madeByWrite: ['dateUpdated'],
	},
	'installation.create': {
		params: {
			solutionId: byId('id', 102),
			title: 'Preview create',
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
			templateIds: [1021],
		},
		// The new installation's other keys (appId, version, dates, settings) only the service knows.
		madeByWrite: ['id', 'status', '*'],
	},
	'installation.ensure': {
		params: ensureParams('New subject'),
		inputItems: [{ title: 'Leads for ACME' }],
	},
	'bundleData.update': {
		params: {
			installationId: byId('id', 5002),
			bundleId: 7003,
			stepId: 9006,
			fieldValuesMode: 'json',
			fieldValues: '{"subject": "Previewed"}',
		},
	},
	'credential.create': {
		params: {
			partnerId: 202,
			connectionName: 'Chat',
			fieldsMode: 'json',
			fields: '{"token": "t0k3n-value"}',
		},
		madeByWrite: ['id', 'dateCreated'],
	},
	'credential.createLink': {
		params: { linkPartnerId: 201, linkTitle: 'CRM' },
		madeByWrite: ['sharingId', 'link', 'dateCreated', 'expiresAt', 'expiresAtNote', 'status'],
	},
	'credential.renewLink': {
		params: {},
		setup: link,
		madeByWrite: ['link', 'dateCreated', 'expiresAt', 'expiresAtNote'],
	},
	'credential.deleteLink': {
		params: { confirmDeleteLink: true },
		setup: async () => link(),
	},
	'credential.refreshUserData': {
		params: { connectionPartnerId: 201 },
		setup: async () => {
			const { sharingId } = await link();
			return { connectionId: ctx.emu.links.complete(sharingId).id };
		},
		madeByWrite: ['updateStatus', 'updateStatusName', 'updated', 'requests'],
	},
	'endUser.create': {
		params: {},
		partner: true,
		inputItems: [{ customer: 'preview-new' }],
		madeByWrite: [
			'albatoUserId',
			'email',
			'language',
			'timezoneOffset',
			'planId',
			'trxLimit',
			'tokenValidUntil',
		],
	},
	'endUser.setPlan': {
		params: { planId: 23 },
		partner: true,
		setup: async () => {
			await addUsers(ctx.emu, ['cust-1']);
			return {};
		},
	},
	'endUser.delete': {
		params: { confirmDelete: true },
		partner: true,
		setup: async () => {
			await addUsers(ctx.emu, ['cust-1']);
			return {};
		},
	},
	'endUser.block': {
		params: { confirmBlock: true },
		partner: true,
		setup: async () => {
			await addUsers(ctx.emu, ['cust-1']);
			return {};
		},
	},
	'endUser.addTransactions': {
		params: { transactionCount: 500, confirmAddTransactions: true },
		partner: true,
		setup: async () => {
			await addUsers(ctx.emu, ['cust-1']);
			await runPartner(ctx.emu, { resource: 'endUser', operation: 'setPlan', planId: 23 });
			return {};
		},
	},
	'endUser.setOwnConnection': {
		params: { ownFieldsMode: 'json', ownFields: '{"userId": 87}' },
		setup: () => ({ ownPartnerName: ctx.emu.partner.name }),
		madeByWrite: ['webhookUrl', 'title', 'id', 'dateCreated', 'dateUpdated'],
	},
};

/** Operations that only read: Preview changes nothing about them. */
const READING = [
	'bundleData.getAll',
	'credential.getLinkStatus',
	'credential.getSchema',
	'endUser.get',
	'endUser.getPlans',
	'endUser.getOwnConnection',
	'endUser.getOwnConnectionFields',
	'endUser.getToken',
	'installation.get',
	'installation.getAll',
	'installation.getSnapshot',
	'run.getAll',
	'run.getNew',
	'run.getStep',
	'solution.getAll',
	'solution.getConnectionSettings',
	'solution.getTemplates',
];

async function run(name: string, testCase: Case, extra: INodeParameters, preview: boolean) {
	const [resource, operation] = name.split('.');
	const parameters = {
		resource,
		operation,
		...testCase.params,
		...extra,
		...(preview ? PREVIEW : {}),
	};
	return testCase.partner
		? await runPartner(ctx.emu, parameters, { inputItems: testCase.inputItems })
		: await runNode(ctx.emu, parameters, { inputItems: testCase.inputItems });
}

function expectSameOutput(previewed: NodeRun, real: NodeRun, madeByWrite: string[] = []) {
	expect(real.error).toBeUndefined();
	expect(previewed.json).toHaveLength(real.json.length);
	// The service's own time of the change, wherever it shows (e.g. Ensure's installation after PLAY).
	const timeless = (json: IDataObject) =>
		madeByWrite.includes('dateUpdated')
			? (JSON.parse(
					JSON.stringify(json, (key, value: unknown) =>
						key === 'dateUpdated' ? undefined : value,
					),
				) as IDataObject)
			: json;
	previewed.json.forEach((json, index) => {
		expect(json.preview).toBe(true);
		const shown = timeless(withoutPreview(json));
		const actual = timeless(real.json[index]);
		for (const key of Object.keys(shown)) {
			expect(Object.keys(actual)).toContain(key);
			if (!madeByWrite.includes(key)) expect([key, shown[key]]).toEqual([key, actual[key]]);
		}
		if (madeByWrite.includes('*')) return;
		for (const key of Object.keys(actual))
			if (!madeByWrite.includes(key)) expect(Object.keys(shown)).toContain(key);
	});
	expect(previewed.pairedItems).toEqual(real.pairedItems);
}

describe('Preview (Request Options)', () => {
	it('names every operation of the node as writing or reading', () => {
		const all = Object.entries(resources).flatMap(([resource, ops]) =>
			Object.keys(ops).map((op) => `${resource}.${op}`),
		);
		expect([...Object.keys(WRITING), ...READING].sort()).toEqual(all.sort());
	});

	it.each(Object.entries(WRITING))(
		'%s: no write, state unchanged, the real run’s output',
		async (name, testCase) => {
			const extra = (await testCase.setup?.()) ?? {};
			const before = stateOf(ctx.emu);
			const previewed = await run(name, testCase, extra, true);
			expect(previewed.error).toBeUndefined();
			expect(writesIn(previewed.calls)).toEqual([]);
			expect(stateOf(ctx.emu)).toBe(before);
			const real = await run(name, testCase, extra, false);
			expect(writesIn(real.calls).length).toBeGreaterThan(0);
			expectSameOutput(previewed, real, testCase.madeByWrite);
		},
	);
});

describe('Preview with the partner credential (End User ID per item)', () => {
	/** cust-1 and cust-2, each with a paused installation "Partner <id>" of solution 101. */
	async function customers() {
		await addUsers(ctx.emu, ['cust-1', 'cust-2']);
		for (const id of ['cust-1', 'cust-2']) await installFor(ctx.emu, id, `Partner ${id}`);
		ctx.emu.requests.length = 0;
		return [...ctx.emu.state.installations.values()]
			.filter((installation) => installation.title.startsWith('Partner '))
			.map((installation) => ({ customer: installation.title.slice(8), id: installation.id }));
	}

	const partnerCases: Record<string, INodeParameters> = {
		start: {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', '={{ $json.id }}'),
		},
		ensure: {
			...ensureParams('Partner subject', { templateIds: [1011] }),
			title: '=Partner {{ $json.customer }}',
		},
		update: {
			resource: 'bundleData',
			operation: 'update',
			installationId: byId('id', '={{ $json.id }}'),
			bundleId: '={{ $json.bundle }}',
			stepId: '={{ $json.step }}',
			fieldValuesMode: 'json',
			fieldValues: '{"subject": "Partner preview"}',
			ifActive: 'pauseAndResume',
		},
	};

	it.each(Object.entries(partnerCases))(
		'%s: no write for any customer, the real output',
		async (_name, params) => {
			const items = (await customers()).map((item) => {
				const bundle = [...ctx.emu.state.bundles.values()].find(
					(b) => b.installationId === item.id,
				)!;
				return { ...item, bundle: bundle.id, step: bundle.stepIds[1] };
			});
			const before = stateOf(ctx.emu);
			const previewed = await runPartner(ctx.emu, { ...params, ...PREVIEW }, { inputItems: items });
			expect(previewed.error).toBeUndefined();
			expect(writesIn(previewed.calls)).toEqual([]);
			expect(stateOf(ctx.emu)).toBe(before);
			const real = await runPartner(ctx.emu, params, { inputItems: items });
			expect(writesIn(real.calls).length).toBeGreaterThanOrEqual(2);
			expectSameOutput(previewed, real, ['dateUpdated']);
			expect(previewed.pairedItems).toEqual([{ item: 0 }, { item: 1 }]);
		},
	);
});

describe('Preview fails where the real run fails', () => {
	const cases: Array<[string, INodeParameters, IDataObject[]]> = [
		[
			'unknown installation',
			{ resource: 'installation', operation: 'start', installationId: byId('id', 999999) },
			[{}],
		],
		[
			'unknown step (Ensure)',
			ensureParams('x', {
				desiredFields: {
					field: [{ automation: 1011, step: 'No such step', code: 'subject', value: 'x' }],
				},
			}),
			[{ title: 'Leads for ACME' }],
		],
		[
			'unknown solution (Create)',
			{
				resource: 'installation',
				operation: 'create',
				solutionId: byId('id', 999),
				title: 'Nowhere',
				connectionSettingsMode: 'json',
				credentialData: '{}',
				templateIds: [1],
			},
			[{}],
		],
		[
			'a step of another installation (Update)',
			{
				resource: 'bundleData',
				operation: 'update',
				installationId: byId('id', 5001),
				bundleId: 7003,
				stepId: 9006,
				fieldValuesMode: 'json',
				fieldValues: '{"subject": "x"}',
				ifActive: 'pauseAndResume',
			},
			[{}],
		],
	];

	it.each(cases)('%s', async (_name, params, inputItems) => {
		const before = stateOf(ctx.emu);
		const previewed = await runNode(ctx.emu, { ...params, ...PREVIEW }, { inputItems });
		expect(writesIn(previewed.calls)).toEqual([]);
		expect(stateOf(ctx.emu)).toBe(before);
		const real = await runNode(ctx.emu, params, { inputItems });
		expect(previewed.error?.message).toBeDefined();
		expect(previewed.error?.message).toBe(real.error?.message);
	});
});

describe('Preview: the transport’s safety net', () => {
	it('an operation that forgets Preview sends nothing: its write is refused, naming the call', async () => {
		const operations = resources.installation as Record<string, unknown>;
		const original = resources.installation.start;
		operations.start = {
			...original,
			preview: async (client: AlbatoClient, itemIndex: number) =>
				await setStatus(client, 5002, 'PLAY', itemIndex),
		};
		try {
			const run = await runNode(ctx.emu, {
				resource: 'installation',
				operation: 'start',
				installationId: byId('id', 5002),
				...PREVIEW,
			});
			expect(run.error?.message).toBe(
				'Preview is on: PLAY /solution/installation/5002 was not sent, because it may change the service',
			);
			expect(run.calls).toEqual([]);
		} finally {
			operations.start = original;
		}
	});

	it('reading operations run as usual in Preview', async () => {
		const reads: INodeParameters[] = [
			{ resource: 'installation', operation: 'getAll', returnAll: true },
			{ resource: 'installation', operation: 'get', installationId: byId('id', 5001) },
			{ resource: 'solution', operation: 'getAll', returnAll: true },
			{
				resource: 'bundleData',
				operation: 'getAll',
				installationId: byId('id', 5002),
				scope: 'bundle',
				bundleId: 7003,
			},
		];
		for (const params of reads) {
			const run = await runNode(ctx.emu, { ...params, ...PREVIEW });
			expect(run.error).toBeUndefined();
			expect(run.json.length).toBeGreaterThan(0);
		}
		await addUsers(ctx.emu, ['cust-1']);
		for (const operation of ['get', 'getToken']) {
			const run = await runPartner(ctx.emu, { resource: 'endUser', operation, ...PREVIEW });
			expect(run.error).toBeUndefined();
			expect(writesIn(run.calls)).toEqual([]);
		}
	});

	it('a Preview that is not true or false is refused before anything is sent', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'start',
			installationId: byId('id', 5002),
			requestOptions: { preview: 'yes' },
		});
		expect(run.error?.message).toBe('Request Options → Preview must be true or false, got "yes"');
		expect(run.calls).toEqual([]);
	});
});
