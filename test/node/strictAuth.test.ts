/**
 * The emulator's strict readings of how Albato takes a token, one at a time: with the default
 * credentials (Auto) a representative operation of each resource, partner mode, the trigger and the
 * credential tests pass; with the wrong explicit choice the node fails naming the option to change.
 * Representatives, not every suite per reading: npm test stays within its time.
 */
import { join } from 'path';
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { AlbatoSolutionsApi } from '../../credentials/AlbatoSolutionsApi.credentials';
import type { StrictAuth, Variants } from '../../emulator/types';
import { pollContext } from '../../harness';
import { testCredential } from '../../harness/credentialTest';
import { type ExampleWorkflow, readExample, runExample } from '../../harness/examples';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { forTests as tokenCache } from '../../nodes/shared/transport/tokenCache';
import { forTests as tokenForms } from '../../nodes/shared/transport/tokenForms';
import { CUSTOMER, type Made, OPERATIONS, prepare } from '../support/operations';
import { partnerCredential, runPartner, usePartnerEmulator } from '../support/partnerSetup';
import { type NodeRun, runNode } from '../support/setup';
import { useShortWaits } from '../support/waits';

const ctx = usePartnerEmulator();
useShortWaits(50); // the journey's waits (re-reads, polls), not what this file is about

/** A permanent token of the fixtures' user-1 (opaque, as /wl hands them out). */
const PERMANENT = 'perm_strictAuthMatrixUser1Token0123456789';

/** Each strict reading, with the tokens the service hands out under it. */
const READINGS: Array<[StrictAuth, Variants['partnerTokens']]> = [
	['noRawBasic', 'permanent'],
	['noBasicUsername', 'permanent'],
	['noBearerPermanent', 'permanent'],
	['panelToken', 'both'],
	['sessionToken', 'both'],
];

/** One operation of each resource, as the table of operations gives it. */
const ACCESS_TOKEN_KEYS = [
	'solution.checkConnection',
	'solution.getAll',
	'bundleData.getAll',
	'run.getAll',
	'credential.createLink',
];
/** Create makes the end user the others act as. */
const PARTNER_KEYS = ['endUser.create', 'endUser.getPlans', 'endUser.getToken'];

const row = (key: string) => {
	const found = OPERATIONS.find((operation) => operation.key === key);
	if (!found) throw new Error(`No operation ${key}`);
	return found;
};

const paramsOf = (key: string, made: Made): INodeParameters => {
	const [resource, operation] = key.split('.');
	const { params } = row(key);
	return { resource, operation, ...(typeof params === 'function' ? params(made) : params) };
};

const asCustomer = (parameters: INodeParameters, credential?: ICredentialDataDecryptedObject) =>
	runPartner(ctx.emu, parameters, {
		inputItems: [{ customer: CUSTOMER }],
		credential: credential ?? partnerCredential(ctx.emu),
	});

/** A connection of the partner's end user, made with a link (update-user-data refreshes it). */
async function customerConnection(credential?: ICredentialDataDecryptedObject): Promise<number> {
	const link = await asCustomer(
		{ resource: 'credential', operation: 'createLink', linkPartnerId: 201, linkTitle: 'Strict' },
		credential,
	);
	return ctx.emu.links.complete(link.json[0].sharingId as number).id;
}

const refresh = (connectionId: number, options: INodeParameters = {}): INodeParameters => ({
	resource: 'credential',
	operation: 'refreshUserData',
	connectionPartnerId: 201,
	connectionId,
	options,
});

const example = (name: string) =>
	readExample(join(__dirname, '..', '..', 'examples', `${name}.workflow.json`));

/** A node's parameters in an example, as saved there. */
const stepOf = (workflow: ExampleWorkflow, name: string): INodeParameters => {
	const node = workflow.nodes.find((candidate) => candidate.name === name);
	if (!node) throw new Error(`No node "${name}" in ${workflow.name}`);
	return node.parameters as INodeParameters;
};

const succeeded = (run: NodeRun, what: string) => {
	if (run.error) throw new Error(`${what}: ${run.error.message} — ${run.error.description ?? ''}`);
};

function useReading(strictAuth: StrictAuth, partnerTokens: Variants['partnerTokens']) {
	beforeEach(() => {
		ctx.emu.setVariants({ strictAuth, partnerTokens });
		ctx.emu.state.permanentTokens.set(PERMANENT, 'user-1');
	});
}

describe.each(READINGS)(
	'strict reading %s (tokens: %s), default credentials (Auto)',
	(strict, tokens) => {
		useReading(strict, tokens);

		it('an operation of each resource with the Access Token credential, a permanent token', async () => {
			for (const key of ACCESS_TOKEN_KEYS) {
				const made = await prepare(ctx.emu, row(key));
				succeeded(await runNode(ctx.emu, paramsOf(key, made), { token: PERMANENT }), key);
			}
		});

		it('partner mode: End User operations, an installation list and update-user-data', async () => {
			const made = await prepare(ctx.emu, row('endUser.create'));
			for (const key of PARTNER_KEYS) succeeded(await asCustomer(paramsOf(key, made)), key);
			const list = { resource: 'installation', operation: 'getAll', returnAll: true };
			succeeded(await asCustomer(list), 'installation.getAll');
			succeeded(
				await asCustomer(refresh(await customerConnection())),
				'credential.refreshUserData',
			);
		});

		// The Albato nodes of the partner journeys (scripts/e2e/partner.mjs runs them whole in real
		// n8n), with the parameters their example files save; the webhook, Split Out and If nodes
		// are n8n's own, so the items they would hand on are given here.
		it('the partner journeys: new-customer-onboarding, then nightly-pause-resume (pause, resume)', async () => {
			const onboarding = example('new-customer-onboarding');
			const nightly = example('nightly-pause-resume');
			const customers = ['strict-northwind', 'strict-contoso'];
			const arrivals = customers.map((id) => ({ body: { customerId: id, company: id } }));
			const created = await runPartner(ctx.emu, stepOf(onboarding, 'Create end user'), {
				inputItems: arrivals,
			});
			succeeded(created, 'Create end user');
			expect(created.json.map((item) => item.endUserId)).toEqual(customers);
			const ensured = await runPartner(
				ctx.emu,
				{
					...stepOf(onboarding, 'Ensure lead sync'),
					// In the example these read the webhook node's item.
					endUserId: '={{ $json.body.customerId }}',
					title: '={{ $json.body.company }} – lead sync',
				},
				{ inputItems: arrivals },
			);
			succeeded(ensured, 'Ensure lead sync');
			expect(ensured.json.map((item) => (item.installation as IDataObject).status)).toEqual([1, 1]);

			const nights: Array<[string, string, number]> = [
				['pause', 'Pause', 0],
				['resume', 'Start', 1],
			];
			for (const [action, stepName, status] of nights)
				for (const customerId of customers) {
					const found = await runPartner(ctx.emu, stepOf(nightly, 'Installations to change'), {
						inputItems: [{ customerId, action }],
					});
					succeeded(found, `Installations to change (${action} ${customerId})`);
					expect(found.json).toHaveLength(1);
					const changed = await runPartner(
						ctx.emu,
						// In the example the End User ID reads the Split Out node's item.
						{ ...stepOf(nightly, stepName), endUserId: '={{ $json.customer }}' },
						{ inputItems: [{ customer: customerId, id: found.json[0].id }] },
					);
					succeeded(changed, `${stepName} (${customerId})`);
					expect([customerId, stepName, changed.json[0].status]).toEqual([
						customerId,
						stepName,
						status,
					]);
				}
			const owned = [...ctx.emu.state.installations.values()].filter((installation) =>
				customers.some((id) => installation.userId === `${ctx.emu.partner.name}:${id}`),
			);
			expect(owned.map((installation) => installation.status)).toEqual([1, 1]);
		});

		// The readings of update-user-data leave the Access Token's calls as they are.
		if (tokens === 'permanent')
			it("the demo's journey (examples/customer-onboarding) with a permanent Access Token", async () => {
				const workflow = readExample(
					join(__dirname, '..', '..', 'examples', 'customer-onboarding.workflow.json'),
				);
				const result = await runExample(workflow, [new AlbatoSolutions()], {
					albatoSolutionsApi: { baseUrl: ctx.emu.baseUrl, accessToken: PERMANENT },
				});
				for (const node of workflow.nodes)
					expect([node.name, result.error(node.name)?.message]).toEqual([node.name, undefined]);
				expect(JSON.stringify(result.run)).not.toContain(PERMANENT);
			});

		it('the trigger in partner mode', async () => {
			await prepare(ctx.emu, row('endUser.getPlans')); // makes the end user
			const trigger = new AlbatoSolutionsTrigger();
			const poll = async () =>
				await trigger.poll.call(
					pollContext({
						nodeType: trigger,
						parameters: {
							authentication: 'partnerApi',
							endUserId: CUSTOMER,
							events: ['installationCreated'],
							solutionId: { __rl: true, mode: 'id', value: '' },
						},
						credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
						staticData: {},
						mode: 'trigger',
					}),
				);
			await expect(poll()).resolves.toBeNull();
		});

		it('the credential tests pass with the right tokens, on Auto, and say the form', async () => {
			// Each tries the forms Auto tries (methods/credentialTest.ts), as the node does.
			const partner = await testCredential(new AlbatoPartnerApi(), partnerCredential(ctx.emu));
			const access = await testCredential(new AlbatoSolutionsApi(), {
				baseUrl: ctx.emu.baseUrl,
				accessToken: PERMANENT,
			});
			expect([partner.status, access.status]).toEqual(['OK', 'OK']);
			const refusesFirst = strict === 'noBasicUsername';
			expect(access.message).toContain(refusesFirst ? 'as Bearer' : 'as Basic Username');
			expect(partner.message).toContain(refusesFirst ? 'as Basic Token' : 'as Basic Username');
		});
	},
);

/** The wrong explicit choice under each reading, and the option its error names. */
const WRONG: Array<
	[StrictAuth, Variants['partnerTokens'], string, () => Promise<NodeRun>, RegExp]
> = [
	[
		'noRawBasic',
		'both',
		'Send Master Token As: Basic Token',
		() =>
			asCustomer(
				{ resource: 'endUser', operation: 'getPlans' },
				pinned({ headerForm: 'basicRaw' }),
			),
		/Send Master Token As/,
	],
	[
		'noBasicUsername',
		'both',
		'Send Master Token As: Basic Username',
		() =>
			asCustomer(
				{ resource: 'endUser', operation: 'getPlans' },
				pinned({ headerForm: 'basicUsername' }),
			),
		/Send Master Token As/,
	],
	[
		'noBasicUsername',
		'both',
		'Send Token As: Basic Username',
		() => runNode(ctx.emu, listApps, { token: PERMANENT, ...accessPinned('basicUsername') }),
		/Send Token As/,
	],
	[
		'noBearerPermanent',
		'permanent',
		'Send End-User Tokens As: Bearer',
		() => asCustomer(listInstallations, pinned({ endUserHeaderForm: 'bearer' })),
		/Send End-User Tokens As/,
	],
	[
		'noBearerPermanent',
		'both',
		'Send Token As: Bearer',
		() => runNode(ctx.emu, listApps, { token: PERMANENT, ...accessPinned('bearer') }),
		/Send Token As/,
	],
	[
		'panelToken',
		'both',
		'Authorize As: End User',
		async () => asCustomer(refresh(await customerConnection(), { authorizeAs: 'endUser' })),
		/Authorize As/,
	],
	[
		'sessionToken',
		'both',
		'Send Master Token As: Basic Username (no discovery), Authorize As: Master Token',
		async () => {
			const credential = pinned({ headerForm: 'basicUsername' });
			return await asCustomer(refresh(await customerConnection(credential)), credential);
		},
		/Authorize As/,
	],
];

const listApps: INodeParameters = { resource: 'solution', operation: 'getAll', returnAll: true };
const listInstallations: INodeParameters = {
	resource: 'installation',
	operation: 'getAll',
	returnAll: true,
};
const pinned = (extra: ICredentialDataDecryptedObject) => partnerCredential(ctx.emu, extra);
const accessPinned = (headerForm: string) => ({ headerForm });

describe('update-user-data where only a session token is taken', () => {
	useReading('sessionToken', 'both');

	it("on Auto: the master token once, then the end user's token for every later call", async () => {
		await prepare(ctx.emu, row('endUser.getPlans'));
		const connectionId = await customerConnection();
		const from = ctx.emu.requests.length;
		succeeded(await asCustomer(refresh(connectionId)), 'first');
		succeeded(await asCustomer(refresh(connectionId)), 'second');
		const sent = ctx.emu.requests
			.slice(from)
			.filter((r) => r.path.endsWith('/update-user-data'))
			.map((r) => r.status);
		expect(sent).toEqual([401, 200, 200]);
	});
});

describe.each(WRONG)(
	'strict reading %s (tokens: %s), %s',
	(strict, tokens, _choice, run, option) => {
		useReading(strict, tokens);

		it('fails with a message naming the option to change', async () => {
			await prepare(ctx.emu, row('endUser.getPlans'));
			tokenCache.clearEndUserTokenCache();
			tokenForms.clear();
			const failed = await run();
			expect(failed.error?.httpCode).toBe('401');
			expect(`${failed.error?.message} ${failed.error?.description}`).toMatch(option);
		});
	},
);
