/** What a service handler gets and returns. */
import { ApiError, notFound } from '../errors';
import type {
	BundleRecord,
	BundleStepRecord,
	EmulatorState,
	InstallationRecord,
	PartnerSettings,
	Variants,
} from '../types';

export interface HandlerContext {
	/** End user (token sub). */
	user: string;
	state: EmulatorState;
	/** Numeric path parameter ({id}), when the route has one. */
	id: number;
	/** Every path parameter as text (e.g. {partnerId} and {credentialId}; the {partner-name} of /wl). */
	params?: string[];
	query: Record<string, unknown>;
	body: unknown;
	variants: Variants;
	initialStatus: 0 | 1;
	/** For the /wl endpoints: the partner's settings and the secret that signs session tokens. */
	partner: { settings: PartnerSettings; secret: string };
}

export interface HandlerResult {
	status?: number;
	data: unknown;
}

export type Handler = (ctx: HandlerContext) => HandlerResult;

/** ISO 8601 without milliseconds, e.g. 2024-05-01T10:00:00Z. */
export const nowIso = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
	!!v && typeof v === 'object' && !Array.isArray(v);

// Ownership lookups: another user's records are reported exactly like unknown ones.

export function ownInstallation(ctx: HandlerContext, id: number): InstallationRecord {
	const inst = ctx.state.installations.get(id);
	if (!inst || inst.userId !== ctx.user) throw notFound(`Installation ${id}`);
	return inst;
}

export function ownBundle(ctx: HandlerContext, id: number): BundleRecord {
	const bundle = ctx.state.bundles.get(id);
	const inst = bundle && ctx.state.installations.get(bundle.installationId);
	if (!bundle || !inst || inst.userId !== ctx.user) throw notFound(`Bundle ${id}`);
	return bundle;
}

export function ownBundleStep(
	ctx: HandlerContext,
	id: number,
): { step: BundleStepRecord; installation: InstallationRecord } {
	const step = ctx.state.bundleData.get(id);
	const bundle = step && ctx.state.bundles.get(step.bundleId);
	const installation = bundle && ctx.state.installations.get(bundle.installationId);
	if (!step || !installation || installation.userId !== ctx.user)
		throw notFound(`Bundle step ${id}`);
	return { step, installation };
}

/**
 * A handler for an endpoint the docs give as "GET | POST", answering only the methods a variant
 * allows (`both`, `get` or `post`); the other answers 405 with `Allow`.
 */
export function byMethodOnly(
	method: 'GET' | 'POST',
	endpoint: string,
	allowedOf: (ctx: HandlerContext) => 'both' | 'get' | 'post',
	handler: Handler,
): Handler {
	return (ctx) => {
		const allowed = allowedOf(ctx);
		if (allowed !== 'both' && allowed !== method.toLowerCase()) {
			const allow = allowed.toUpperCase();
			throw new ApiError(405, `Method ${method} is not allowed on ${endpoint}; allowed: ${allow}`, {
				Allow: allow,
			});
		}
		return handler(ctx);
	};
}
