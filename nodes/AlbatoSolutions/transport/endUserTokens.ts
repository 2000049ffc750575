/**
 * Partner mode: the node holds the partner's master token and acts as one end user per item
 * (End User ID), with a token minted through `POST /wl/{partner}/get-user-session-token`.
 *
 * Minted tokens are kept in memory, per (credential, end user): the credential's id plus a
 * fingerprint of its data, so two credentials (or one credential before and after an edit) never
 * share a token. A token with an expiry is reused by later executions until shortly before it
 * expires; one without is kept for the current execution only (every node of it; forgotten after
 * 10 minutes unused; pickers and polls: for the one call). Concurrent requests for the same
 * user wait for one mint. Losing the cache costs one token call per user, nothing else.
 */
import type {
	IAdditionalCredentialOptions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import {
	checkEndUserId,
	checkPartnerName,
	fingerprint,
	type MintedToken,
	refreshMargin,
	tokenFromResponse,
} from '../helpers/endUserToken';
import { baseUrlProblem } from '../helpers/baseUrl';

export const PARTNER_CREDENTIAL_TYPE = 'albatoPartnerApi';

/** Values of the node's and the trigger's `authentication` parameter. */
export const ACCESS_TOKEN = 'accessToken';
export const PARTNER_API = 'partnerApi';

type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** Sends the token call for one end user and answers the response's data (the client's job). */
export type MintRequest = (userId: string, itemIndex: number | undefined) => Promise<unknown>;

interface CacheEntry {
	token: string;
	mintedAt: number;
	expiresAt: number;
}

// Module level on purpose: shared by every execution in this n8n process, never persisted.
const cache = new Map<string, CacheEntry>();
const minting = new Map<string, Promise<MintedToken>>();
/** Tokens without an expiry, by execution (every node of it): dropped after this long unused. */
const perExecution = new Map<string, { token: string; usedAt: number }>();
const EXECUTION_IDLE = 10 * 60_000;
const MAX_ENTRIES = 5_000;
let sessions = 0;

/** Empties the token cache (tests: "a new n8n process"). */
export function clearEndUserTokenCache(): void {
	cache.clear();
	minting.clear();
	perExecution.clear();
}

/** A parameter as the context reads it: per item when executing, the editor's value in pickers. */
function parameter(
	ctx: Context,
	name: string,
	itemIndex: number | undefined,
	fallback: unknown,
): unknown {
	if ('getCurrentNodeParameter' in ctx) return ctx.getCurrentNodeParameter(name) ?? fallback;
	if ('getInputData' in ctx) return ctx.getNodeParameter(name, itemIndex ?? 0, fallback);
	return (ctx as IPollFunctions).getNodeParameter(name, fallback);
}

export function authenticationOf(ctx: Context): string {
	return String(parameter(ctx, 'authentication', 0, ACCESS_TOKEN));
}

/** What a client in partner mode needs: the credential, the current end user, and the tokens. */
export class PartnerSession {
	readonly baseUrl: string;

	readonly partnerName: string;

	/** Passed to the /wl calls, so n8n does not load and decrypt the credential per call. */
	readonly credentialOptions: IAdditionalCredentialOptions;

	private readonly key: string;

	private readonly masterToken: string;

	/** Keys this session's tokens without an expiry: the execution (pickers, polls: the session itself). */
	private readonly scope: string;

	/** Every token this session handed out, for redaction. */
	private readonly used = new Set<string>();

	private constructor(
		private readonly ctx: Context,
		private readonly node: INode,
		credentials: ICredentialDataDecryptedObject,
		private readonly mint: MintRequest,
	) {
		this.baseUrl = String(credentials.baseUrl ?? '')
			.trim()
			.replace(/\/+$/, '');
		this.partnerName = String(credentials.partnerName ?? '').trim();
		this.masterToken = String(credentials.masterToken ?? '').trim();
		const { id, name } = node.credentials?.[PARTNER_CREDENTIAL_TYPE] ?? {};
		this.credentialOptions = {
			credentialsDecrypted: {
				id: id ?? '',
				name: name ?? '',
				type: PARTNER_CREDENTIAL_TYPE,
				data: credentials,
			},
		};
		const data = JSON.stringify([
			this.baseUrl,
			this.partnerName,
			this.masterToken,
			credentials.basicAuthStyle ?? '',
		]);
		this.key = `${id ?? ''}\n${fingerprint(data)}`;
		const executionId = 'getExecutionId' in ctx ? ctx.getExecutionId() : undefined;
		this.scope = `${executionId ? `execution ${executionId}` : `session ${++sessions}`}\n${this.key}`;
	}

	/** Reads and checks the Albato Partner API credential: raises before any request is sent. */
	static async create(ctx: Context, mint: MintRequest): Promise<PartnerSession> {
		const credentials = await ctx.getCredentials(PARTNER_CREDENTIAL_TYPE);
		const node = ctx.getNode();
		const problem = (message: string, description: string) =>
			new NodeOperationError(node, message, { description });
		const baseUrl = baseUrlProblem(
			String(credentials.baseUrl ?? '')
				.trim()
				.replace(/\/+$/, ''),
		);
		if (baseUrl) {
			throw problem(
				`The credential's Base URL ${baseUrl}`,
				'Set Base URL in the Albato Partner API credential, e.g. https://api.albato.com',
			);
		}
		if (!checkPartnerName(credentials.partnerName)) {
			throw problem(
				`The credential's Partner Name "${String(credentials.partnerName ?? '')}" is not valid`,
				'Set Partner Name in the Albato Partner API credential to the {partner-name} of your partner URLs (letters, digits, - _ . ~)',
			);
		}
		if (!String(credentials.masterToken ?? '').trim()) {
			throw problem(
				'The credential has no Master Token',
				'Paste the master token from the Embedded panel into the Albato Partner API credential',
			);
		}
		return new PartnerSession(ctx, node, credentials, mint);
	}

	/** Whom an item acts for (service, partner, end user; never a token): keys in-process bookkeeping. */
	principal(itemIndex: number | undefined): string {
		return [this.baseUrl, this.partnerName, this.endUserId(itemIndex)].join('\u0000');
	}

	/** The partner's own id of the end user this item acts as (End User ID), checked. */
	endUserId(itemIndex: number | undefined): string {
		const raw = parameter(this.ctx, 'endUserId', itemIndex, '');
		const fail = (problem: string) =>
			new NodeOperationError(this.node, `End User ID ${problem}`, {
				itemIndex,
				description:
					'Set End User ID to your own id of the customer, e.g. {{ $json.customerId }}: with the Albato Partner API credential every call acts as that end user',
			});
		if ('getCurrentNodeParameter' in this.ctx && typeof raw === 'string' && raw.startsWith('=')) {
			throw fail(
				'is an expression: lists in the editor need a fixed End User ID (type one to browse, then switch back)',
			);
		}
		const checked = checkEndUserId(raw);
		if ('problem' in checked) throw fail(checked.problem);
		return checked.id;
	}

	/** `/wl/{partner}/<endpoint>` */
	path(endpoint: string): string {
		return `/wl/${encodeURIComponent(this.partnerName)}/${endpoint}`;
	}

	/** The n8n credential options that put `Bearer <token>` on an end-user call (the Access Token credential's own `authenticate`). */
	bearer(token: string, credentialType: string): IAdditionalCredentialOptions {
		return {
			credentialsDecrypted: {
				id: '',
				name: 'minted end-user token',
				type: credentialType,
				data: { baseUrl: this.baseUrl, accessToken: token },
			},
		};
	}

	/** What to do about a failed call in partner mode, where it differs from the usual hint. */
	hint(status: number, path: string): string | undefined {
		const partnerCall = path.startsWith('/wl/');
		// Which one, when a workflow has several (staging, production): its name, never its data.
		const name = this.credentialOptions.credentialsDecrypted?.name;
		const credential = `the Albato Partner API credential${name ? ` "${name}"` : ''}`;
		if (status === 401) {
			return partnerCall
				? `The service refused the master token. Check Master Token, Partner Name and Send Master Token As in ${credential}.`
				: `The service refused the end user's token even after one fresh token. Check ${credential} and that the end user exists.`;
		}
		if (status === 403 && partnerCall)
			return `The master token is not valid for this Partner Name: check both in ${credential}.`;
		if (status === 404 && path.endsWith('/get-user-session-token'))
			return 'No end user with this End User ID: create it first (End User → Create).';
		if (status === 404 && partnerCall)
			return `No such partner endpoint: check Base URL and Partner Name in ${credential}.`;
		return undefined;
	}

	/**
	 * Everything that must never appear in a message: the master token (also as sent with Send Master
	 * Token As: Basic Username, base64 of "<token>:") and every token handed out.
	 */
	secrets(): string[] {
		return [
			this.masterToken,
			Buffer.from(`${this.masterToken}:`, 'utf8').toString('base64'),
			...this.used,
		];
	}

	/**
	 * The end user's token: cached while valid, else minted (once for all concurrent callers).
	 * With `stale` (the token the service just refused with 401) that token is dropped first.
	 */
	async token(userId: string, itemIndex: number | undefined, stale?: string): Promise<string> {
		const key = `${this.key}\n${userId}`;
		if (stale !== undefined) {
			if (cache.get(key)?.token === stale) cache.delete(key);
			if (this.local(userId) === stale) perExecution.delete(`${this.scope}\n${userId}`);
		}
		const local = this.local(userId);
		if (local) return this.use(local);
		const cached = cache.get(key);
		if (cached && Date.now() < cached.expiresAt - refreshMargin(cached.mintedAt, cached.expiresAt))
			return this.use(cached.token);

		let minted: MintedToken;
		try {
			minted = await this.shared(key, userId, itemIndex);
		} catch (error) {
			throw forItem(error, itemIndex);
		}
		if (minted.expiresAt === undefined) this.keepLocal(userId, minted.token);
		return this.use(minted.token);
	}

	/** Adds a token seen outside the cache to what is redacted. */
	hide(token: string | undefined): void {
		if (token) this.used.add(token);
	}

	/** When the cached token of this end user expires (epoch ms), if known. */
	expiresAt(userId: string): number | undefined {
		return this.local(userId) !== undefined
			? undefined
			: cache.get(`${this.key}\n${userId}`)?.expiresAt;
	}

	/** Keeps a token the service handed out with a new user (add-user), so no token call follows. */
	remember(userId: string, data: unknown): void {
		const minted = tokenFromResponse(data);
		if (minted) this.store(`${this.key}\n${userId}`, userId, minted);
	}

	/**
	 * One token call for every concurrent caller. Callers that waited on a call that failed join (or
	 * start) one more, also shared: a failing service gets two calls, not one per waiting item.
	 */
	private async shared(
		key: string,
		userId: string,
		itemIndex: number | undefined,
	): Promise<MintedToken> {
		const pending = minting.get(key);
		if (!pending) return await this.start(key, userId, itemIndex);
		try {
			return await pending;
		} catch {
			return await this.start(key, userId, itemIndex);
		}
	}

	private start(key: string, userId: string, itemIndex: number | undefined): Promise<MintedToken> {
		const running = minting.get(key);
		if (running) return running;
		const pending: Promise<MintedToken> = this.mintNow(key, userId, itemIndex).finally(() => {
			if (minting.get(key) === pending) minting.delete(key);
		});
		minting.set(key, pending);
		return pending;
	}

	private async mintNow(
		key: string,
		userId: string,
		itemIndex: number | undefined,
	): Promise<MintedToken> {
		const data = await this.mint(userId, itemIndex);
		const minted = tokenFromResponse(data);
		if (!minted) {
			const message = 'The service answered the token request without a token';
			throw new NodeApiError(this.node, { message } as JsonObject, {
				message,
				description: `POST ${this.path('get-user-session-token')} for End User ID "${userId}" returned neither sessionToken, token nor permanentToken. Check that the end user exists (End User → Create) and your partner settings.`,
				itemIndex,
			});
		}
		this.store(key, userId, minted);
		return minted;
	}

	private store(key: string, userId: string, minted: MintedToken): void {
		this.used.add(minted.token);
		if (minted.expiresAt === undefined) {
			this.keepLocal(userId, minted.token);
			return;
		}
		if (cache.size >= MAX_ENTRIES) evict();
		cache.set(key, { token: minted.token, mintedAt: Date.now(), expiresAt: minted.expiresAt });
	}

	/** This execution's token of the user that has no expiry, if any (kept while used). */
	private local(userId: string): string | undefined {
		const entry = perExecution.get(`${this.scope}\n${userId}`);
		if (!entry) return undefined;
		const now = Date.now();
		if (now - entry.usedAt > EXECUTION_IDLE) {
			perExecution.delete(`${this.scope}\n${userId}`);
			return undefined;
		}
		entry.usedAt = now;
		return entry.token;
	}

	/** Keeps a token without an expiry for this execution; forgets those of executions idle too long. */
	private keepLocal(userId: string, token: string): void {
		const now = Date.now();
		for (const [key, entry] of perExecution)
			if (now - entry.usedAt > EXECUTION_IDLE) perExecution.delete(key);
		while (perExecution.size >= MAX_ENTRIES)
			perExecution.delete(perExecution.keys().next().value as string);
		perExecution.set(`${this.scope}\n${userId}`, { token, usedAt: now });
	}

	private use(token: string): string {
		this.used.add(token);
		return token;
	}
}

/**
 * A failed token call is shared by every caller that waited on it (possibly in another execution):
 * each gets it with its own item index, so no error names another item.
 */
function forItem(error: unknown, itemIndex: number | undefined): unknown {
	const context = (error as { context?: Record<string, unknown> } | undefined)?.context;
	if (!(error instanceof Error) || !context || context.itemIndex === itemIndex) return error;
	const copy = Object.create(
		Object.getPrototypeOf(error) as object,
		Object.getOwnPropertyDescriptors(error),
	) as Error;
	(copy as unknown as { context: Record<string, unknown> }).context = { ...context, itemIndex };
	return copy;
}

/** Drops expired entries, then the oldest, to keep the cache bounded. */
function evict(): void {
	const now = Date.now();
	for (const [key, entry] of cache) if (entry.expiresAt <= now) cache.delete(key);
	while (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
}
