import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../constants';
import { tokenExpiry } from '../readers/token';
import type { ApiContext } from './callOptions';
import { baseUrlOf, baseUrlProblem } from './baseUrl';

/** Reads and checks the Albato Solutions API credential: raises before any request is sent. */
export async function readAccessToken(
	ctx: ApiContext,
): Promise<{ baseUrl: string; token: string; credentials: ICredentialDataDecryptedObject }> {
	const credentials = await ctx.getCredentials<{ baseUrl?: string; accessToken?: string }>(
		CREDENTIAL_TYPE,
	);
	const baseUrl = baseUrlOf(credentials.baseUrl);
	const token = String(credentials.accessToken ?? '').trim();
	const problem = baseUrlProblem(baseUrl);
	if (problem) {
		throw new NodeOperationError(ctx.getNode(), `The credential's Base URL ${problem}`, {
			description:
				'Set Base URL in the Albato Solutions API credential, e.g. https://api.albato.com',
		});
	}
	if (!token) {
		throw new NodeOperationError(ctx.getNode(), 'The credential has no Access Token', {
			description: "Paste the end user's token into the Albato Solutions API credential",
		});
	}
	const expiry = tokenExpiry(token);
	if (expiry && expiry.getTime() <= Date.now()) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The access token expired at ${expiry.toISOString()}`,
			{ description: 'Get a new end-user token and update the Albato Solutions API credential' },
		);
	}
	return { baseUrl, token, credentials: credentials as ICredentialDataDecryptedObject };
}
