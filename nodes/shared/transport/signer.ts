/**
 * Whom a client signs its calls as: the Access Token credential (accessToken.ts) or the partner
 * session (partnerSession.ts). The client and the sender ask this interface, never which one it is.
 */
import type { IAdditionalCredentialOptions } from 'n8n-workflow';

import type { TokenForm } from '../readers/token';
import type { SendAs } from './callOptions';
import type { Trial } from './tokenForms';

export interface Signer {
	readonly baseUrl: string;
	/** Whom an item acts for (base URL + end user, never a token): keys in-process bookkeeping. */
	principal(itemIndex: number | undefined): string;
	/**
	 * `principal` when a new credential of the same end user gives the same key (a partner's End
	 * User ID, a token that names its subject); undefined for a token known only by its digest.
	 */
	namedPrincipal(itemIndex: number | undefined): string | undefined;
	/** How each token goes now (the form learnt, or the only one), named; never a token. */
	tokenForms(itemIndex: number): Record<string, string>;
	/** How one call puts its token in the header: the form learnt, or those to try. */
	trial(sendAs: SendAs, token: string | undefined): Promise<Trial>;
	/** The credential n8n signs a call with, and the options it is handed, its token in `form`. */
	signed(
		sendAs: SendAs,
		token: string | undefined,
		form: TokenForm,
	): [string, IAdditionalCredentialOptions];
	/**
	 * The Authorization header an owed call carries when n8n would abort the authenticated request:
	 * the one the credential adds, in the attempt's form (undefined: none is owed).
	 */
	owedAuthorization(sendAs: SendAs, token: string | undefined, form: TokenForm): string | undefined;
	/** What must never appear in any message: the credential's own tokens, as sent too. */
	secrets(): string[];
}
