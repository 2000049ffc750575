/**
 * Partner mode in tests: the node with the Albato Partner API credential, acting as End User ID per
 * item, against the emulator's /wl endpoints. The token cache is module-level (as in n8n): each
 * test starts from an empty one, like a fresh n8n process.
 */
import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../emulator';
import { forTests } from '../../nodes/shared/transport/tokenCache';
import { type NodeRun, runAlbatoNode, useEmulator } from './setup';

const { clearEndUserTokenCache } = forTests;

export const TOKEN_PATH = /^\/wl\/[^/]+\/get-user-session-token$/;
export const ADD_USER_PATH = /^\/wl\/[^/]+\/add-user$/;

export function usePartnerEmulator() {
	const ctx = useEmulator();
	beforeEach(() => clearEndUserTokenCache());
	return ctx;
}

export const partnerCredential = (
	emu: Emulator,
	extra: ICredentialDataDecryptedObject = {},
): ICredentialDataDecryptedObject => ({
	baseUrl: emu.baseUrl,
	partnerName: emu.partner.name,
	masterToken: emu.partner.masterToken,
	...extra,
});

/**
 * Send Master Token As for the form the emulator's partner accepts (`acceptStyles`, its own words):
 * `raw` is Basic <token>, `usernamePassword` base64 of "<token>:".
 */
export const masterForm = (style: 'raw' | 'usernamePassword') =>
	style === 'raw' ? 'basicRaw' : 'basicUsername';

export interface PartnerRunOptions {
	inputItems?: IDataObject[];
	continueOnFail?: boolean;
	credential?: ICredentialDataDecryptedObject;
	/** The n8n credential's id (two ids = two credentials, even with the same data). */
	credentialId?: string;
}

export async function runPartner(
	emu: Emulator,
	parameters: INodeParameters,
	options: PartnerRunOptions = {},
): Promise<NodeRun> {
	const credentialId = options.credentialId ?? 'partner-credential-1';
	return await runAlbatoNode(
		emu,
		{
			parameters: {
				authentication: 'partnerApi',
				endUserId: '={{ $json.customer }}',
				...parameters,
			},
			credentials: { albatoPartnerApi: { id: credentialId, name: `Partner ${credentialId}` } },
			...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
		},
		options.inputItems ?? [{ customer: 'cust-1' }],
		{ albatoPartnerApi: options.credential ?? partnerCredential(emu) },
	);
}

/**
 * Creates end users straight through the emulator's HTTP interface (as the partner's own backend
 * would).
 */
export async function addUsers(emu: Emulator, ids: string[]): Promise<void> {
	const { masterToken } = emu.partner;
	// Whichever form the emulator takes (its strict readings refuse one of them).
	const forms = [
		`Basic ${masterToken}`,
		`Basic ${Buffer.from(`${masterToken}:`).toString('base64')}`,
	];
	const add = async (id: string, authorization: string) =>
		await fetch(`${emu.baseUrl}/wl/${emu.partner.name}/add-user`, {
			method: 'POST',
			headers: { Authorization: authorization, 'Content-Type': 'application/json' },
			body: JSON.stringify({ id }),
		});
	for (const id of ids) {
		let response = await add(id, forms[0]);
		if (response.status === 401) response = await add(id, forms[1]);
		if (response.status !== 200)
			throw new Error(`add-user ${id}: ${response.status} ${await response.text()}`);
	}
	emu.requests.length = 0;
}

/**
 * The end user installs solution 101 elsewhere (with their own token, as the partner's backend
 * would).
 */
export async function installFor(emu: Emulator, endUserId: string, title: string): Promise<void> {
	const minted = (await fetch(`${emu.baseUrl}/wl/${emu.partner.name}/get-user-session-token`, {
		method: 'POST',
		headers: {
			Authorization: `Basic ${emu.partner.masterToken}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({ id: endUserId }),
	}).then(async (r) => await r.json())) as { data: { sessionToken: string } };
	const installed = await fetch(`${emu.baseUrl}/solution/101/installation`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${minted.data.sessionToken}`,
			'Content-Type': 'application/json',
		},
		body: JSON.stringify({
			title,
			templateIds: [1011],
			credentialData: {
				crm: 'hubspot',
				hubspotPipeline: 'sales',
				hubspotStage: 'new',
				mailer: 'mailchimp',
			},
		}),
	});
	if (installed.status !== 201)
		throw new Error(`install for ${endUserId}: ${installed.status} ${await installed.text()}`);
}

export const tokenCalls = (run: NodeRun) =>
	run.calls.filter((call) => TOKEN_PATH.test(call.split(' ')[1])).length;
