/**
 * Refreshed user data (outside the spec, from Albato's docs):
 *   POST   /credentials/{partnerId}/{credentialId}/update-user-data      Bearer master token or the owner's token
 * Successive calls step through the rule the control surface sets (connections.ts).
 */
import { authenticate, basicToken } from '../auth';
import { ApiError, notFound } from '../errors';
import { PARTNERS } from '../fixtures';
import type { PartnerSettings, Variants } from '../types';
import type { Handler } from './context';
import { shaped, UPDATE_WORDS } from './links';
import { authenticatePartner } from './partner';

interface AuthEnv {
	secret: string;
	permanentTokens: Map<string, string>;
	partner: PartnerSettings;
	variants: Variants;
	segment: string;
}

/**
 * update-user-data's page says "Authorization: Bearer <master account token>". The master
 * account's token is the partner's master token (the one /wl takes as Basic), sent as Bearer.
 * `updateUserDataAuth`: 'either' (default) also takes the credential owner's end-user token;
 * 'master' only the master token; 'user' only end-user tokens. Basic is refused.
 */
export function authenticateUpdateUserData(header: string | undefined, env: AuthEnv): string {
	const { strictAuth } = env.variants;
	// The strict readings of "the master account token": the panel's master token, or a session token.
	const mode =
		strictAuth === 'panelToken'
			? 'master'
			: strictAuth === 'sessionToken'
				? 'user'
				: env.variants.updateUserDataAuth;
	const bearer = header && /^Bearer\s+(\S+)\s*$/i.exec(header);
	if (bearer && bearer[1] === env.partner.masterToken) {
		if (mode === 'user')
			throw new ApiError(401, 'This call takes the end user\'s token ("Bearer <token>")');
		return `partner:${env.partner.name}`;
	}
	if (header && /^Basic\s/i.test(header) && carriesMaster(header, env.partner.masterToken))
		throw new ApiError(
			401,
			'Send the master account token as "Authorization: Bearer <master token>", not Basic',
		);
	if (mode === 'master')
		throw new ApiError(
			401,
			header
				? 'This call takes the master account token: "Authorization: Bearer <master token>"'
				: 'Missing Authorization header: send "Authorization: Bearer <master token>"',
		);
	const user = authenticate(header, env.secret, env.permanentTokens, strictAuth);
	if (strictAuth === 'sessionToken' && header && permanentOf(header, env.permanentTokens))
		throw new ApiError(401, 'This call takes a session token, not a permanent token');
	return user;
}

/** Also used by get-own-credential-metadata: Bearer end-user token or Basic master token (`ownMetadataAuth`). */
export function authenticateUserOrMaster(header: string | undefined, env: AuthEnv): string {
	const mode = env.variants.ownMetadataAuth;
	// Basic with the master token; an end user's token may come as Basic too (its username).
	if (header && /^Basic\s/i.test(header) && carriesMaster(header, env.partner.masterToken)) {
		if (mode === 'user')
			throw new ApiError(401, 'This call takes the end user\'s token ("Bearer <token>")');
		return authenticatePartner(header, env.partner, env.segment, env.variants.strictAuth);
	}
	if (mode === 'master')
		throw new ApiError(
			401,
			'This call takes the master token: "Authorization: Basic <master token>"',
			{ 'WWW-Authenticate': 'Basic realm="partner"' },
		);
	return authenticate(header, env.secret, env.permanentTokens, env.variants.strictAuth);
}

/** Whether a Basic header carries the master token (raw or as the username). */
function carriesMaster(header: string, masterToken: string): boolean {
	const value = header.trim().split(/\s+/)[1] ?? '';
	return basicToken(value).token === masterToken;
}

/** Whether a header carries a permanent token (in any form). */
function permanentOf(header: string, permanentTokens: Map<string, string>): boolean {
	const [scheme, value = ''] = header.trim().split(/\s+/);
	const token = /^basic$/i.test(scheme) ? basicToken(value).token : value;
	return permanentTokens.has(token);
}

/** POST /credentials/{partnerId}/{credentialId}/update-user-data (no body) → {updateStatus}; successive calls step through the rule. */
export const updateUserData: Handler = (ctx) => {
	const [partnerText, credentialText] = ctx.params ?? [];
	const partnerId = Number(partnerText);
	const credentialId = Number(credentialText);
	if (!PARTNERS[partnerId]) throw notFound(`Partner ${partnerId}`);
	const credential = ctx.state.credentials.get(credentialId);
	const master = ctx.user.startsWith('partner:');
	if (!credential || (!master && credential.userId !== ctx.user))
		throw notFound(`Credential ${credentialId}`);
	if (credential.partnerId !== partnerId)
		throw notFound(`Credential ${credentialId} of partner ${partnerId}`);
	const status = ctx.state.connections.nextUpdateStatus(credentialId);
	const out: Record<string, unknown> = {
		updateStatus: shaped(status, UPDATE_WORDS, ctx.variants),
	};
	if (ctx.variants.connectionExtraFields) {
		out.credentialId = credentialId;
		out.partnerId = partnerId;
	}
	return { data: out };
};
