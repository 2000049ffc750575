import type { ILoadOptionsFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { AlbatoClient } from '../transport/client';
import { PARTNER_API } from '../constants';
import { authenticationOf } from '../transport/partnerCredential';

// n8n-core's own words (NodeExecutionContext.getCredentials) when no credential is selected, never
// the service's: AlbatoClient.create only reads the credential and sends no request.
const NO_CREDENTIAL = /does not have any credentials set|Credentials not found/i;

/**
 * Runs one picker call with a fresh client: nothing is cached between calls, so every list shows
 * the service as it is now. The editor shows only an error's message in the picker, so:
 *  - n8n-core's "Node does not have any credentials set for …" becomes a message naming the
 *    credential;
 *  - the client's own checks (Base URL, empty or expired token) already say what to fix and pass as
 *    they are;
 *  - a service or network error says what could not be loaded, then the service's words
 *    (the call, the status and the hint stay in the description).
 */
export async function load<T>(
	ctx: ILoadOptionsFunctions,
	what: string,
	run: (client: AlbatoClient) => Promise<T>,
): Promise<T> {
	let client: AlbatoClient;
	try {
		client = await AlbatoClient.create(ctx);
	} catch (error) {
		if (NO_CREDENTIAL.test(String((error as Error).message))) {
			const partner = authenticationOf(ctx) === PARTNER_API;
			const name = partner ? 'Albato Partner API' : 'Albato Solutions API';
			throw new NodeOperationError(ctx.getNode(), `Select an ${name} credential to load ${what}`, {
				description: `This node has no credential yet: choose or create an ${name} credential, then open the list again`,
			});
		}
		// Already a NodeOperationError (returned as is) unless something unexpected failed.
		throw new NodeOperationError(ctx.getNode(), error as Error);
	}
	try {
		return await run(client);
	} catch (error) {
		if (!(error instanceof NodeApiError))
			throw new NodeOperationError(ctx.getNode(), error as Error);
		// n8n 2.41's editor puts a picker error's httpCode before its message ("404 - Could not load
		// …"): none here; the call and its status stay in the description, which it shows whole.
		const { told, endUser } = endUserApart(client, error.message);
		const message = keptWhole(`Could not load ${what}: ${told}`);
		const description = [endUser, error.description ?? ''].filter(Boolean).join(' ');
		throw new NodeApiError(
			ctx.getNode(),
			{ message },
			{ message, description: description || undefined },
		);
	}
}

/**
 * n8n's resource locator shows an error's message split at every dash, the parts joined by spaces:
 * "cust-alpah" would read "cust alpah". A hyphen inside a word becomes U+2011 (a non-breaking
 * hyphen, shown the same and not split there); the description keeps the text as typed.
 */
export function keptWhole(message: string): string {
	return message.replace(/(?<=\S)-(?=\S)/g, '\u2011');
}

/**
 * In partner mode, the End User ID as typed, once, first in the description (which the editor
 * shows whole, its hyphens plain); where the service's words quote it, the message says where it is
 * instead, as the editor would split it at its hyphens there.
 */
function endUserApart(client: AlbatoClient, message: string): { told: string; endUser: string } {
	if (!client.partner) return { told: message, endUser: '' };
	let endUserId: string;
	try {
		endUserId = client.partner.endUserId(undefined);
	} catch {
		return { told: message, endUser: '' }; // not typed yet: the message says what is missing
	}
	return {
		told: message.split(`"${endUserId}"`).join('(the End User ID below)'),
		endUser: `End User ID: "${endUserId}".`,
	};
}
