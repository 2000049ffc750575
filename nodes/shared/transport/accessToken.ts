import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	INode,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../constants';
import { fingerprint } from '../readers/mintedToken';
import {
	authorizationIn,
	formChoice,
	formsFor,
	looksLikeJwt,
	namedPrincipalOf,
	principalOf,
	tokenExpiry,
	type TokenForm,
} from '../readers/token';
import { decryptedOptions } from './partnerCredential';
import { Trial, wayIn, wayName } from './tokenForms';
import type { ApiContext, SendAs } from './callOptions';
import type { Signer } from './signer';
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

/**
 * The Access Token credential, read once: what a client without a partner session signs with, and
 * the form its token goes in (Send Token As; on Auto found out, see tokenForms.ts).
 */
export class AccessCredential implements Signer {
	/** Per form: what n8n's request helper is handed, built once (the hot path allocates nothing). */
	private readonly signedForms = new Map<TokenForm, IAdditionalCredentialOptions>();

	private readonly key: string;

	private readonly ways: TokenForm[];

	constructor(
		private readonly node: INode,
		readonly baseUrl: string,
		readonly token: string,
		private readonly credentials: ICredentialDataDecryptedObject,
	) {
		const { id } = node.credentials?.[CREDENTIAL_TYPE] ?? {};
		this.key = `access\n${id ?? ''}\n${fingerprint(JSON.stringify([baseUrl, token]))}`;
		this.ways = formsFor(token, formChoice(credentials, 'headerForm'), 'bearer');
	}

	principal(): string {
		return principalOf(this.baseUrl, this.token);
	}

	namedPrincipal(): string | undefined {
		return namedPrincipalOf(this.baseUrl, this.token);
	}

	/** How one call sends the token: the form learnt, or those to try. */
	async trial(): Promise<Trial> {
		const { name } = this.node.credentials?.[CREDENTIAL_TYPE] ?? {};
		const credential = `the Albato Solutions API credential${name ? ` "${name}"` : ''}`;
		return await Trial.start(this.key, this.ways, { where: credential, option: 'Send Token As' });
	}

	/** How the token goes now (learnt by a call, or the only form), named, and its kind. */
	tokenForms(): Record<string, string> {
		const kind = looksLikeJwt(this.token) ? 'session token (JWT)' : 'permanent token';
		return { accessToken: wayName(wayIn(this.key, this.ways)), accessTokenKind: kind };
	}

	signed(
		_sendAs: SendAs,
		_token: string | undefined,
		form: TokenForm,
	): [string, IAdditionalCredentialOptions] {
		return [CREDENTIAL_TYPE, this.options(form)];
	}

	owedAuthorization(_sendAs: SendAs, _token: string | undefined, form: TokenForm): string {
		return authorizationIn(this.token, form);
	}

	secrets(): string[] {
		return [this.token];
	}

	/** The credential as n8n signs a request with it, its token in `form`. */
	private options(form: TokenForm): IAdditionalCredentialOptions {
		let options = this.signedForms.get(form);
		if (!options) {
			const data = { ...this.credentials, headerForm: form };
			options = decryptedOptions(this.node, CREDENTIAL_TYPE, data);
			this.signedForms.set(form, options);
		}
		return options;
	}
}
