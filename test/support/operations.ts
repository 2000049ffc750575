/**
 * The one place a test names an operation: its key, the credential it runs with, sample parameters
 * that succeed against the emulator (given what `needs` prepares), the endpoints a run with them
 * calls, and its effect, read from the node's own operation modules. The coverage, billing and
 * Preview tests iterate this table; apiCoverage.test.ts checks that every operation of the node has
 * a row, and that each run calls exactly the endpoints of its row.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { forTests } from '../../nodes/AlbatoSolutions/actions';
import type { Operation } from '../../nodes/AlbatoSolutions/actions/types';
import { forTests as tokenCacheForTests } from '../../nodes/shared/transport/tokenCache';
import { addUsers, runPartner } from './partnerSetup';
import { byId, type NodeRun, runNode } from './setup';
import { upgradeParams } from './upgrades';

/** What a run needs in the emulator first. */
type Need =
	| 'endUser' // the end user CUSTOMER exists (partner credential)
	| 'link' // a connection link of the token's user
	| 'connection' // a connection made with such a link
	| 'ownConnection'; // the token's user has a connection to the partner's own app

/** What the preparation made, for the parameters that name it. */
export interface Made {
	sharingId: number;
	connectionId: number;
	partner: string;
}

interface Row {
	key: `${string}.${string}`;
	/** solutions: the Albato Solutions API credential (access token); partner: Albato Partner API. */
	credential: 'solutions' | 'partner';
	params: INodeParameters | ((made: Made) => INodeParameters);
	needs?: Need;
	/** Every endpoint a run calls: "METHOD /path", numbers as {id}, the partner name as {partner}. */
	calls: string[];
	/** Output keys whose values only the write makes (IDs, links, the service's own dates); '*': and keys only its answer has. */
	madeByWrite?: string[];
}

/** The end user of the partner credential's runs (End User ID from the item). */
export const CUSTOMER = 'coverage';

const WL = '/wl/{partner}';
const INSTALLATION = 'GET /solution/installation/{id}';

const ROWS: Row[] = [
	{
		key: 'solution.getAll',
		credential: 'solutions',
		params: { returnAll: true },
		calls: ['GET /solution/apps'],
	},
	{
		key: 'solution.checkConnection',
		credential: 'solutions',
		params: {},
		calls: ['GET /solution/apps'],
	},
	{
		key: 'solution.getConnectionSettings',
		credential: 'solutions',
		params: { solutionId: byId('id', 101), credentialData: '{"crm": "pipedrive"}' },
		calls: ['GET /solution/{id}/credentialists'],
	},
	{
		key: 'solution.getTemplates',
		credential: 'solutions',
		params: { solutionId: byId('id', 101) },
		calls: ['GET /solution/{id}/templates'],
	},
	{
		key: 'installation.create',
		credential: 'solutions',
		params: {
			solutionId: byId('id', 102),
			title: 'Coverage',
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
			templateIds: [1021],
		},
		calls: [
			'GET /solution/{id}/credentialists',
			'GET /solution/installation',
			'POST /solution/{id}/installation',
		],
		// The new installation's other keys (appId, version, dates, settings) only the service knows.
		madeByWrite: ['id', 'status', '*'],
	},
	{
		// An installation that exists (active), with a field to change: Ensure's whole path.
		key: 'installation.ensure',
		credential: 'solutions',
		params: {
			solutionId: byId('id', 101),
			title: 'Leads for ACME',
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
			templateIds: [1011, 1012],
			desiredFields: {
				field: [{ automation: 1011, step: 'Send welcome email', code: 'subject', value: 'New' }],
			},
			desiredStatus: 'active',
			options: { lostAnswerCheck: 0.5 },
		},
		calls: [
			'GET /solution/installation',
			INSTALLATION,
			'GET /bundle/data',
			'PAUSE /solution/installation/{id}',
			'PUT /bundle/data/{id}',
			'PLAY /solution/installation/{id}',
		],
	},
	{
		// Customer "Leads for ACME" (5001, solution 101, active) to 105, the next version: the whole
		// path (the subject carried into a field that holds another value, so one PUT). Before the install, Preview cannot know the new
		// installation's steps and fields, so what maps is known only from the real run.
		key: 'installation.upgrade',
		credential: 'solutions',
		params: upgradeParams({ fieldRenames: '{"subject": "replyTo"}', requestOptions: {} }),
		calls: [
			'GET /solution/installation',
			INSTALLATION,
			'GET /bundle/data',
			'GET /solution/{id}/credentialists',
			'POST /solution/{id}/installation',
			'PUT /bundle/data/{id}',
			'PAUSE /solution/installation/{id}',
			'PLAY /solution/installation/{id}',
		],
		madeByWrite: ['newInstallation', 'notice', 'written', 'mapped', 'unmapped', 'kept'],
	},
	{
		key: 'installation.get',
		credential: 'solutions',
		params: { installationId: byId('id', 5001), includeBundles: true },
		calls: [INSTALLATION],
	},
	{
		key: 'installation.getAll',
		credential: 'solutions',
		params: { returnAll: true },
		calls: ['GET /solution/installation'],
	},
	{
		key: 'installation.getSnapshot',
		credential: 'solutions',
		params: { installationId: byId('id', 5002) },
		calls: [INSTALLATION, 'GET /bundle/data'],
	},
	{
		key: 'installation.start',
		credential: 'solutions',
		params: { installationId: byId('id', 5002) },
		calls: ['PLAY /solution/installation/{id}'],
		madeByWrite: ['dateUpdated'],
	},
	{
		key: 'installation.pause',
		credential: 'solutions',
		params: { installationId: byId('id', 5001) },
		calls: ['PAUSE /solution/installation/{id}'],
		madeByWrite: ['dateUpdated'],
	},
	{
		key: 'bundleData.getAll',
		credential: 'solutions',
		params: { installationId: byId('id', 5002), scope: 'bundle', bundleId: 7003 },
		calls: ['GET /bundle/data'],
	},
	{
		key: 'bundleData.update',
		credential: 'solutions',
		params: {
			installationId: byId('id', 5002),
			bundleId: 7003,
			stepId: 9006,
			fieldValuesMode: 'json',
			fieldValues: '{"subject": "x"}',
		},
		calls: ['PUT /bundle/data/{id}'],
	},
	{
		key: 'credential.getSchema',
		credential: 'solutions',
		params: { partnerId: 202 },
		calls: ['GET /credentials/{id}/meta'],
	},
	{
		key: 'credential.create',
		credential: 'solutions',
		params: {
			partnerId: 202,
			connectionName: 'Chat',
			fieldsMode: 'json',
			fields: '{"token": "t0k3n-value"}',
		},
		calls: ['GET /credentials/{id}/meta', 'POST /credentials/{id}'],
		madeByWrite: ['id', 'dateCreated'],
	},
	{
		key: 'credential.createLink',
		credential: 'solutions',
		params: { linkPartnerId: 201, linkTitle: 'CRM' },
		calls: ['POST /credentials/grant-access-sharing'],
		madeByWrite: ['sharingId', 'link', 'dateCreated', 'expiresAt', 'expiresAtNote', 'status'],
	},
	{
		key: 'credential.getLinkStatus',
		credential: 'solutions',
		params: ({ sharingId }) => ({ sharingId }),
		needs: 'link',
		calls: ['GET /credentials/grant-access-sharing/{id}'],
	},
	{
		key: 'credential.renewLink',
		credential: 'solutions',
		params: ({ sharingId }) => ({ sharingId }),
		needs: 'link',
		calls: ['PUT /credentials/grant-access-sharing/{id}'],
		madeByWrite: ['link', 'dateCreated', 'expiresAt', 'expiresAtNote'],
	},
	{
		key: 'credential.deleteLink',
		credential: 'solutions',
		params: ({ sharingId }) => ({ sharingId, confirmDeleteLink: true }),
		needs: 'link',
		calls: ['DELETE /credentials/grant-access-sharing/{id}'],
	},
	{
		key: 'credential.refreshUserData',
		credential: 'solutions',
		params: ({ connectionId }) => ({ connectionPartnerId: 201, connectionId }),
		needs: 'connection',
		calls: ['POST /credentials/{id}/{id}/update-user-data'],
		madeByWrite: ['updateStatus', 'updateStatusName', 'updated', 'requests'],
	},
	{
		key: 'endUser.create',
		credential: 'partner',
		params: {},
		// add-user's answer has no language or offset: the profile gives them, as on a repeat.
		calls: [`POST ${WL}/add-user`, `POST ${WL}/get-user-profile`],
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
	{
		key: 'endUser.getToken',
		credential: 'partner',
		params: {},
		needs: 'endUser',
		calls: [`POST ${WL}/get-user-session-token`],
	},
	{
		key: 'endUser.get',
		credential: 'partner',
		params: { options: { includePlanUsage: true } },
		needs: 'endUser',
		calls: [`POST ${WL}/get-user-profile`, `GET ${WL}/list-plans`],
	},
	{
		key: 'endUser.setPlan',
		credential: 'partner',
		params: { planId: 23 },
		needs: 'endUser',
		calls: [`GET ${WL}/list-plans`, `POST ${WL}/set-user-plan`],
	},
	{
		key: 'endUser.getPlans',
		credential: 'partner',
		params: {},
		needs: 'endUser',
		calls: [`GET ${WL}/list-plans`],
	},
	{
		key: 'endUser.addTransactions',
		credential: 'partner',
		params: { transactionCount: 500, confirmAddTransactions: true },
		needs: 'endUser',
		calls: [`POST ${WL}/add-user-plan-transactions`],
	},
	{
		key: 'endUser.block',
		credential: 'partner',
		params: { confirmBlock: true },
		needs: 'endUser',
		calls: [`POST ${WL}/block-user-plan`],
	},
	{
		key: 'endUser.delete',
		credential: 'partner',
		params: { confirmDelete: true },
		needs: 'endUser',
		calls: [`POST ${WL}/delete-user`],
	},
	{
		key: 'endUser.setOwnConnection',
		credential: 'solutions',
		params: ({ partner }) => ({
			ownPartnerName: partner,
			ownFieldsMode: 'json',
			ownFields: '{"userId": 87}',
		}),
		calls: [`POST ${WL}/upsert-own-credential`],
		madeByWrite: ['webhookUrl', 'title', 'id', 'dateCreated', 'dateUpdated'],
	},
	{
		key: 'endUser.getOwnConnection',
		credential: 'solutions',
		params: ({ partner }) => ({ ownPartnerName: partner }),
		needs: 'ownConnection',
		calls: [`POST ${WL}/get-own-credential`],
	},
	{
		key: 'endUser.getOwnConnectionFields',
		credential: 'solutions',
		params: ({ partner }) => ({ ownPartnerName: partner }),
		calls: [`GET ${WL}/get-own-credential-metadata`],
	},
	{
		key: 'run.getAll',
		credential: 'solutions',
		params: { installationId: byId('id', 5001), returnAll: true },
		calls: ['GET /bundle/events', INSTALLATION],
	},
	{
		key: 'run.getNew',
		credential: 'solutions',
		params: { runsOf: 'installation', installationId: byId('id', 5001) },
		calls: ['GET /bundle/events', INSTALLATION],
	},
	{
		key: 'run.getStep',
		credential: 'solutions',
		params: { runStepId: '3944029301' },
		calls: ['GET /bundle/events/steps/{id}'],
	},
];

const { resources } = forTests;

/** An operation's effect, as its own module declares it. */
function effectOf(key: string): Operation['effect'] {
	const [resource, operation] = key.split('.');
	const operations = resources[resource as keyof typeof resources] as Record<string, Operation>;
	return operations[operation].effect;
}

export const OPERATIONS = ROWS.map((row) => ({ ...row, effect: effectOf(row.key) }));
export type OperationFixture = (typeof OPERATIONS)[number];

/** Every operation of the node, as `resource.operation`. */
export const nodeOperations = (): string[] =>
	Object.entries(resources).flatMap(([resource, operations]) =>
		Object.keys(operations).map((operation) => `${resource}.${operation}`),
	);

/** A call as the table writes it: numbers as {id}, the partner's name as {partner}. */
export const endpointOf = (emu: Emulator, call: string) =>
	call.replace(`/wl/${emu.partner.name}/`, '/wl/{partner}/').replace(/\/\d+(?=\/|$)/g, '/{id}');

/** Makes what the row needs, straight through the emulator or a run of the node (not measured). */
export async function prepare(emu: Emulator, row: OperationFixture): Promise<Made> {
	tokenCacheForTests.clearEndUserTokenCache();
	const made: Made = { sharingId: 0, connectionId: 0, partner: emu.partner.name };
	if (row.needs === 'endUser') await addUsers(emu, [CUSTOMER]);
	if (row.needs === 'ownConnection') emu.ownCredentials.add('user-1', { userId: 1 });
	if (row.needs === 'link' || row.needs === 'connection') {
		const link = await runNode(emu, {
			resource: 'credential',
			operation: 'createLink',
			linkPartnerId: 201,
			linkTitle: 'Prepared',
		});
		made.sharingId = link.json[0].sharingId as number;
		if (row.needs === 'connection') made.connectionId = emu.links.complete(made.sharingId).id;
	}
	return made;
}

/** Runs the row's operation with its sample parameters (and `extra`), with its credential. */
export async function runOperation(
	emu: Emulator,
	row: OperationFixture,
	made: Made,
	extra: INodeParameters = {},
): Promise<NodeRun> {
	const [resource, operation] = row.key.split('.');
	const params = typeof row.params === 'function' ? row.params(made) : row.params;
	const parameters = { resource, operation, ...params, ...extra };
	const inputItems: IDataObject[] = [{ customer: CUSTOMER }];
	return row.credential === 'partner'
		? await runPartner(emu, parameters, { inputItems })
		: await runNode(emu, parameters, { inputItems });
}
