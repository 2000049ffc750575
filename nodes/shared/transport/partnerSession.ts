/**
 * Partner mode: the node holds the partner's master token and acts as one end user per item
 * (End User ID), with a token minted through `POST /wl/{partner}/get-user-session-token`.
 *
 * Minted tokens are kept in memory, per (credential, end user): the credential's id plus a
 * fingerprint of its data, so two credentials (or one credential before and after an edit) never
 * share a token. A token with an expiry is reused by later executions until shortly before it
 * expires; one without (a permanent token) for UNDATED_KEEP, so both kinds cost one token call per
 * customer per worker. Concurrent requests for the same user wait for one mint. The cache itself
 * is tokenCache.ts.
 */
import type { IAdditionalCredentialOptions, INode } from 'n8n-workflow';

import { CREDENTIAL_TYPE, PARTNER_CREDENTIAL_TYPE } from '../constants';
import { fingerprint, type MintedToken, tokenFromResponse } from '../readers/mintedToken';
import {
	authorizationIn,
	basicUsername,
	chosenForm,
	formChoice,
	formsFor,
	looksLikeJwt,
	type TokenForm,
} from '../readers/token';
import type { ApiContext, SendAs } from './callOptions';
import { EndUserIds } from './endUserId';
import { readError } from './errors';
import { decryptedOptions, type PartnerCredential } from './partnerCredential';
import type { Signer } from './signer';
import { Trial, type Way, wayIn, wayName } from './tokenForms';
import {
	cachedExpiry,
	cachedToken,
	dropCached,
	dropEndUser,
	forItem,
	sharedMint,
	storeToken,
} from './tokenCache';

/** The token call for one end user, as the session asks its client to send it. */
export interface TokenCall {
	/** `/wl/{partner}/get-user-session-token` */
	path: string;
	endUserId: string;
	itemIndex: number | undefined;
	/** For an owed call (see CallOptions.owed): its token call is sent even after a Stop. */
	owed: boolean;
}

/** Sends the token call and answers the response's data (the client's job). */
type MintRequest = (call: TokenCall) => Promise<unknown>;

/** How a token is asked for: for which item, for an owed call, and which token was just refused. */
interface TokenRequest {
	itemIndex?: number;
	owed?: boolean;
	/** The token the service just refused with 401: dropped first. */
	stale?: string;
}

/** What a client in partner mode needs: the credential, the current end user, and the tokens. */
export class PartnerSession implements Signer {
	readonly baseUrl: string;

	readonly partnerName: string;

	/** Passed to the /wl calls, so n8n does not load and decrypt the credential per call. */
	readonly credentialOptions: IAdditionalCredentialOptions;

	private readonly key: string;

	private readonly masterToken: string;

	/**
	 * Tokens seen outside the cache (looked up by e-mail), redacted from every error of this
	 * session. A call's own token is redacted by the call (client.ts): the service can only echo
	 * what it was sent, and one list of every customer's token would cost each error of a fleet
	 * run a pass per customer.
	 */
	private readonly hidden = new Set<string>();

	private readonly node: INode;

	/** The partner credential per form of the master token, built once. */
	private readonly masterForms = new Map<TokenForm, IAdditionalCredentialOptions>();

	/** Each item's End User ID, read once per item while executing. */
	private readonly endUserIds: EndUserIds;

	/** `credential`: read and checked by readPartnerCredential, before any request is sent. */
	constructor(
		ctx: ApiContext,
		{ baseUrl, partnerName, masterToken, credentials }: PartnerCredential,
		private readonly mint: MintRequest,
	) {
		this.node = ctx.getNode();
		this.endUserIds = new EndUserIds(ctx, this.node);
		this.baseUrl = baseUrl;
		this.partnerName = partnerName;
		this.masterToken = masterToken;
		this.credentialOptions = decryptedOptions(this.node, PARTNER_CREDENTIAL_TYPE, credentials);
		const { id } = this.node.credentials?.[PARTNER_CREDENTIAL_TYPE] ?? {};
		const master = formChoice(credentials, 'headerForm');
		const endUser = formChoice(credentials, 'endUserHeaderForm');
		const data = JSON.stringify([baseUrl, partnerName, masterToken, master, endUser]);
		this.key = `${id ?? ''}\n${fingerprint(data)}`;
	}

	/**
	 * Whom an item acts for (service, partner, end user; never a token): keys in-process bookkeeping.
	 */
	principal(itemIndex: number | undefined): string {
		return [this.baseUrl, this.partnerName, this.endUserId(itemIndex)].join('\u0000');
	}

	/** The partner's own id of the end user this item acts as (End User ID), checked. */
	endUserId(itemIndex: number | undefined): string {
		return this.endUserIds.of(itemIndex);
	}

	/** `/wl/{partner}/<endpoint>` */
	path(endpoint: string): string {
		return `/wl/${encodeURIComponent(this.partnerName)}/${endpoint}`;
	}

	/**
	 * How one call sends its token (see tokenForms.ts): the master token as Send Master Token As
	 * says (the /wl calls); the master token as Bearer, or on Auto then the end user's token
	 * (update-user-data); an end user's token as Send End-User Tokens As says.
	 */
	async trial(sendAs: SendAs, token: string | undefined): Promise<Trial> {
		const data = this.credentialOptions.credentialsDecrypted?.data ?? {};
		const where = `the Albato Partner API credential${this.credentialName ? ` "${this.credentialName}"` : ''}`;
		const master = formChoice(data, 'headerForm');
		if (sendAs === 'partner') {
			const ways = formsFor(this.masterToken, master, 'basicRaw');
			return await Trial.start(`${this.key}\nmaster`, ways, {
				where,
				option: 'Send Master Token As',
			});
		}
		if (sendAs === 'masterBearer') {
			const ways: Way[] = chosenForm(master) ? ['bearer'] : ['bearer', 'endUserToken'];
			const pin = { where: 'this node', option: 'Options → Authorize As' };
			return await Trial.start(`${this.key}\nupdate-user-data`, ways, pin);
		}
		const ways = formsFor(token ?? '', formChoice(data, 'endUserHeaderForm'), 'bearer');
		const pin = { where, option: 'Send End-User Tokens As' };
		return await Trial.start(`${this.key}\nuser`, ways, pin);
	}

	namedPrincipal(itemIndex: number | undefined): string {
		return this.principal(itemIndex);
	}

	/**
	 * How the master token and this item's end user's token go now (learnt by a call, or the only
	 * form), named; and which kind of token the service handed out.
	 */
	tokenForms(itemIndex: number): Record<string, string> {
		const endUserId = this.endUserId(itemIndex);
		const data = this.credentialOptions.credentialsDecrypted?.data ?? {};
		const master = formsFor(this.masterToken, formChoice(data, 'headerForm'), 'basicRaw');
		const token = cachedToken(`${this.key}\n${endUserId}`) ?? '';
		const endUser = formsFor(token, formChoice(data, 'endUserHeaderForm'), 'bearer');
		return {
			masterToken: wayName(wayIn(`${this.key}\nmaster`, master)),
			endUserToken: token ? wayName(wayIn(`${this.key}\nuser`, endUser)) : wayName(undefined),
			endUserTokenKind: !token
				? 'none yet'
				: looksLikeJwt(token)
					? 'session token (JWT)'
					: 'permanent token',
		};
	}

	/** The credential n8n signs a call with, and the options it is handed, its token in `form`. */
	signed(
		sendAs: SendAs,
		token: string | undefined,
		form: TokenForm,
	): [string, IAdditionalCredentialOptions] {
		if (sendAs === 'partner') return [PARTNER_CREDENTIAL_TYPE, this.masterSigned(form)];
		// The master token as Bearer (update-user-data, as Albato's page shows it), or the end user's.
		const sent = sendAs === 'masterBearer' ? this.masterToken : (token ?? '');
		const data = { baseUrl: this.baseUrl, accessToken: sent, headerForm: form };
		const name = 'minted end-user token';
		return [
			CREDENTIAL_TYPE,
			{ credentialsDecrypted: { id: '', name, type: CREDENTIAL_TYPE, data } },
		];
	}

	owedAuthorization(sendAs: SendAs, token: string | undefined, form: TokenForm) {
		if (sendAs === 'partner') return authorizationIn(this.masterToken, form);
		// Nothing owed is sent with the master token as Bearer (update-user-data).
		return sendAs === 'masterBearer' || token === undefined
			? undefined
			: authorizationIn(token, form);
	}

	/** The partner credential as n8n signs a /wl call with it, the master token in `form`. */
	private masterSigned(form: TokenForm): IAdditionalCredentialOptions {
		let options = this.masterForms.get(form);
		if (!options) {
			const { credentialsDecrypted } = this.credentialOptions;
			const data = { ...credentialsDecrypted?.data, headerForm: form };
			const base = { id: '', name: '', type: PARTNER_CREDENTIAL_TYPE, ...credentialsDecrypted };
			options = { credentialsDecrypted: { ...base, data } };
			this.masterForms.set(form, options);
		}
		return options;
	}

	/** The credential's name (never its data), for hints when a workflow has several. */
	get credentialName(): string {
		return this.credentialOptions.credentialsDecrypted?.name ?? '';
	}

	/**
	 * What must never appear in any message of this session: the master token (also as sent with
	 * Send Master Token As: Basic Username, base64 of "<token>:") and the tokens hidden explicitly.
	 */
	secrets(): string[] {
		return [this.masterToken, basicUsername(this.masterToken), ...this.hidden];
	}

	/**
	 * The end user's token: cached while valid, else minted (once for all concurrent callers).
	 */
	async token(
		endUserId: string,
		{ itemIndex, owed = false, stale }: TokenRequest = {},
	): Promise<string> {
		const key = `${this.key}\n${endUserId}`;
		if (stale !== undefined) dropCached(key, stale);
		const cached = cachedToken(key);
		if (cached) return cached;

		let minted: MintedToken;
		try {
			const mintOnce = async () => await this.mintNow(key, endUserId, itemIndex, owed);
			minted = await sharedMint(key, mintOnce);
		} catch (error) {
			throw forItem(error, itemIndex);
		}
		return minted.token;
	}

	/** Adds a token seen outside the cache to what is redacted. */
	hide(token: string | undefined): void {
		if (token) this.hidden.add(token);
	}

	/** When the cached token of this end user expires (epoch ms), if known. */
	expiresAt(endUserId: string): number | undefined {
		return cachedExpiry(`${this.key}\n${endUserId}`);
	}

	/** Forgets every token of this end user (after delete-user): none is sent again. */
	forget(endUserId: string): void {
		dropEndUser(`${this.key}\n${endUserId}`);
	}

	/** Keeps a token the service handed out with a new user (add-user), so no token call follows. */
	remember(endUserId: string, data: unknown): void {
		const minted = tokenFromResponse(data);
		if (minted) this.store(`${this.key}\n${endUserId}`, minted);
	}

	private async mintNow(
		key: string,
		endUserId: string,
		itemIndex: number | undefined,
		owed: boolean,
	): Promise<MintedToken> {
		const path = this.path('get-user-session-token');
		const data = await this.mint({ path, endUserId, itemIndex, owed });
		const minted = tokenFromResponse(data);
		if (!minted) {
			const message = 'The service answered the token request without a token';
			throw readError(
				this.node,
				message,
				{ method: 'POST', path },
				itemIndex,
				`POST ${path} for End User ID "${endUserId}" returned neither sessionToken, token nor permanentToken. Check that the end user exists (End User → Create) and your partner settings.`,
			);
		}
		this.store(key, minted);
		return minted;
	}

	private store(key: string, minted: MintedToken): void {
		storeToken(key, minted.token, minted.expiresAt);
	}
}
