/**
 * The Albato Partner API credential and the parameters partner mode reads, checked before any
 * request.
 */
import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	INode,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ACCESS_TOKEN, PARTNER_CREDENTIAL_TYPE } from '../constants';
import { checkPartnerName } from './partnerIds';
import { baseUrlOf, baseUrlProblem } from './baseUrl';
import type { ApiContext } from './callOptions';

/** A parameter as the context reads it: per item when executing, the editor's value in pickers. */
export function parameter(
	ctx: ApiContext,
	name: string,
	itemIndex: number | undefined,
	fallback: unknown,
): unknown {
	if ('getCurrentNodeParameter' in ctx) return ctx.getCurrentNodeParameter(name) ?? fallback;
	if ('getInputData' in ctx) return ctx.getNodeParameter(name, itemIndex ?? 0, fallback);
	return (ctx as IPollFunctions).getNodeParameter(name, fallback);
}

export function authenticationOf(ctx: ApiContext): string {
	return String(parameter(ctx, 'authentication', 0, ACCESS_TOKEN));
}

/**
 * What n8n's request helper is handed with a credential read once (its id and name from the node),
 * so n8n does not load and decrypt it again per call.
 */
export function decryptedOptions(
	node: INode,
	type: string,
	data: ICredentialDataDecryptedObject,
): IAdditionalCredentialOptions {
	const { id, name } = node.credentials?.[type] ?? {};
	return { credentialsDecrypted: { id: id ?? '', name: name ?? '', type, data } };
}

/** The credential's values as the session uses them (trimmed), with its decrypted data. */
export interface PartnerCredential {
	baseUrl: string;
	partnerName: string;
	masterToken: string;
	credentials: ICredentialDataDecryptedObject;
}

/** Reads and checks the Albato Partner API credential: raises before any request is sent. */
export async function readPartnerCredential(ctx: ApiContext): Promise<PartnerCredential> {
	const credentials = await ctx.getCredentials(PARTNER_CREDENTIAL_TYPE);
	const node = ctx.getNode();
	const problem = (message: string, description: string) =>
		new NodeOperationError(node, message, { description });
	const baseUrl = baseUrlOf(credentials.baseUrl);
	const baseUrlWrong = baseUrlProblem(baseUrl);
	if (baseUrlWrong) {
		throw problem(
			`The credential's Base URL ${baseUrlWrong}`,
			'Set Base URL in the Albato Partner API credential, e.g. https://api.albato.com',
		);
	}
	if (!checkPartnerName(credentials.partnerName)) {
		throw problem(
			`The credential's Partner Name "${String(credentials.partnerName ?? '')}" is not valid`,
			'Set Partner Name in the Albato Partner API credential to the {partner-name} of your partner URLs (letters, digits, - _ . ~)',
		);
	}
	const masterToken = String(credentials.masterToken ?? '').trim();
	if (!masterToken) {
		throw problem(
			'The credential has no Master Token',
			'Paste the master token from the Embedded panel into the Albato Partner API credential',
		);
	}
	const partnerName = String(credentials.partnerName ?? '').trim();
	return { baseUrl, partnerName, masterToken, credentials };
}
