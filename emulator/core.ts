/** The request pipeline: log, faults, routing, auth, body parsing, rendering. */
import type http from 'http';

import { answerOf, type Outcome } from './answer';
import { authenticate, authFormOf, signToken } from './auth';
import { customerResolver } from './customerFaults';
import { ApiError, renderError } from './errors';
import { faultAnswer, spoilt, type ErrorForm } from './faultAnswers';
import { describeFault, FaultStore } from './faults';
import { DEFAULT_MASTER_TOKEN, DEFAULT_PARTNER } from './fixtures';
import { authenticatePartner } from './handlers/partner';
import { assertNotDeleted } from './handlers/userLifecycle';
import { RateLimit, type RateLimitRule } from './rateLimit';
import { DEFAULT_VARIANTS } from './render';
import { RequestSummary } from './requestSummary';
import { match, type Match } from './routes';
import { checkErrorStyle, checkPartner, checkVariants } from './settings';
import { createState, resetState } from './state';
import type {
	EmulatorState,
	ErrorStyle,
	PartnerSettings,
	RequestLogEntry,
	TokenClaims,
	Variants,
} from './types';
import {
	bodyForLog,
	parseJsonObject,
	parseQuery,
	receive,
	reset,
	send,
	sleep,
	type ReceivedRequest,
} from './wire';

export { ERROR_STYLES } from './settings';
export { parseQuery, sendJson, type ReceivedRequest } from './wire';

/** One request as the handlers are given it: what came in, its log entry and the server's origin. */
interface Served {
	method: string;
	path: string;
	query: Record<string, unknown>;
	rawBody: Buffer;
	headers: http.IncomingHttpHeaders;
	entry: RequestLogEntry;
	origin: string;
}

export class EmulatorCore {
	readonly state: EmulatorState = createState();
	readonly faults = new FaultStore(customerResolver(this));
	readonly requests: RequestLogEntry[] = [];
	/** Counts of every call served (fleets read this instead of the log). */
	readonly summary = new RequestSummary();
	/** False: calls are only counted in `summary` (the log stays empty, its memory bounded). */
	keepLog = true;
	errorStyle: ErrorStyle = 'errors';
	variants: Variants = { ...DEFAULT_VARIANTS };
	partner: PartnerSettings;
	rateLimit: RateLimit | null = null;

	constructor(
		readonly secret: string,
		readonly initialStatus: 0 | 1,
		private readonly log?: (line: string) => void,
		private readonly partnerDefaults: PartnerSettings = {
			name: DEFAULT_PARTNER,
			masterToken: DEFAULT_MASTER_TOKEN,
			acceptStyles: 'any',
			sessionTokenSeconds: 3600,
		},
	) {
		this.partner = { ...partnerDefaults };
	}

	setPartner(settings: Partial<PartnerSettings>): void {
		checkPartner(settings, this.partnerDefaults);
		this.partner = { ...this.partner, ...settings };
	}

	token(claims?: TokenClaims): string {
		return signToken(this.secret, claims);
	}

	setErrorStyle(style: ErrorStyle): void {
		checkErrorStyle(style);
		this.errorStyle = style;
	}

	setVariants(v: Partial<Variants>): void {
		checkVariants(v);
		this.variants = { ...this.variants, ...v };
	}

	removeInstallation(id: number): void {
		const inst = this.state.installations.get(id);
		if (!inst) return;
		for (const bundleId of inst.bundleIds) {
			for (const stepId of this.state.bundles.get(bundleId)?.stepIds ?? [])
				this.state.bundleData.delete(stepId);
			this.state.bundles.delete(bundleId);
		}
		this.state.installations.delete(id);
	}

	reset(): void {
		resetState(this.state);
		this.requests.length = 0;
		this.summary.clear();
		this.keepLog = true;
		this.faults.clear();
		this.errorStyle = 'errors';
		this.variants = { ...DEFAULT_VARIANTS };
		this.partner = { ...this.partnerDefaults };
		this.rateLimit = null;
	}

	setRateLimit(rule: RateLimitRule | null): void {
		this.rateLimit = rule ? new RateLimit(rule) : null;
	}

	private get errorForm(): ErrorForm {
		return { style: this.errorStyle, successFlag: this.variants.successFlag };
	}

	/** Reads one request where it enters; undefined when its body could not be read (answered). */
	async receive(
		req: http.IncomingMessage,
		res: http.ServerResponse,
	): Promise<ReceivedRequest | undefined> {
		return await receive(req, res, (err) => this.errorBody(err.status, err));
	}

	/** Answers one service request (spec routes and partner routes): log, faults, routing, auth. */
	async respond(
		request: ReceivedRequest,
		req: http.IncomingMessage,
		res: http.ServerResponse,
	): Promise<void> {
		const { method, url, path, rawQuery, rawBody } = request;
		const started = Date.now();
		const query = parseQuery(rawQuery);
		const entry = this.logEntry(request, query, started, req.headers.authorization);
		const finish = (status: number) => {
			entry.status = status;
			this.summary.add(entry);
			this.log?.(
				`${entry.at} ${method} ${url} ${status || 'reset'} ${entry.user ?? '-'} ${Date.now() - started}ms${entry.fault ? ` fault=${entry.fault}` : ''}`,
			);
		};

		const refused = await this.admit(res);
		if (refused) {
			entry.fault = 'rate-limit';
			finish(refused.status);
			return send(res, refused);
		}

		const fault = this.faults.take(method, path, rawQuery, req.headers.authorization);
		if (fault) entry.fault = describeFault(fault);
		if (fault?.delayMs) await sleep(fault.delayMs);
		if (fault?.reset === 'before') {
			finish(0);
			return reset(req);
		}
		const early = fault && faultAnswer(fault, this.errorForm, req.headers.authorization);
		if (early) {
			finish(early.status);
			return send(res, early);
		}

		const origin = `${'encrypted' in req.socket ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
		const served = { method, path, query, rawBody, headers: req.headers, entry, origin };
		// `answerAsGet`: not applied; answered as a GET of the same path would be (e.g. a PLAY answered
		// 200 with the installation as it is, still paused).
		const outcome = this.serve(
			fault?.answerAsGet ? { ...served, method: 'GET', rawBody: Buffer.alloc(0) } : served,
		);
		finish(outcome.status);
		if (fault?.reset === 'after') return reset(req);
		send(res, spoilt(outcome, fault));
	}

	/** The request's log entry, kept in the log unless the log is off. */
	private logEntry(
		request: ReceivedRequest,
		query: Record<string, unknown>,
		started: number,
		authorization?: string,
	): RequestLogEntry {
		const entry: RequestLogEntry = {
			method: request.method,
			path: request.path,
			query,
			rawQuery: request.rawQuery,
			body: bodyForLog(request.rawBody),
			user: null,
			status: 0,
			at: new Date(started).toISOString(),
			auth: authFormOf(authorization),
		};
		if (this.keepLog) this.requests.push(entry);
		return entry;
	}

	/** Under a rate limit: the 429 answer when the request is refused, else waits its service time. */
	private async admit(res: http.ServerResponse): Promise<Outcome | undefined> {
		if (!this.rateLimit) return undefined;
		const { retryAfterSeconds, serviceMs } = this.rateLimit.stats;
		if (!this.rateLimit.admit(res)) {
			const error = new ApiError(429, 'Too many requests at once: retry later');
			return {
				status: 429,
				body: this.errorBody(429, error),
				headers: { 'Retry-After': String(retryAfterSeconds) },
			};
		}
		if (serviceMs) await sleep(serviceMs);
		return undefined;
	}

	private errorBody(status: number, error: ApiError) {
		return renderError(this.errorStyle, status, error.errors, this.variants.successFlag);
	}

	/** Routes, authenticates, parses the body and runs the handler; any ApiError becomes an error body. */
	private serve(served: Served): Outcome {
		const { path, query, headers } = served;
		try {
			const route = match(served.method, path);
			const user = this.userOf(route, headers.authorization);
			served.entry.user = user;
			const body = route.readsBody
				? parseJsonObject(served.rawBody, headers['content-type'])
				: undefined;
			const result = route.handler({
				user,
				state: this.state,
				id: route.id,
				params: route.params,
				query,
				body,
				variants: this.variants,
				initialStatus: this.initialStatus,
				partner: { settings: this.partner, secret: this.secret },
			});
			return answerOf(result, {
				list: route.list,
				query,
				variants: this.variants,
				url: served.origin + path,
			});
		} catch (err) {
			const error =
				err instanceof ApiError
					? err
					: new ApiError(500, `Internal emulator error: ${(err as Error).message}`);
			const extra: Record<string, string> =
				error.status === 401 ? { 'WWW-Authenticate': 'Bearer', ...error.headers } : error.headers;
			return { status: error.status, body: this.errorBody(error.status, error), headers: extra };
		}
	}

	/** Who calls: the route's own check, the partner (the /wl routes: the log names the partner), or an end user. */
	private userOf(route: Match, authorization?: string): string {
		const strict = this.variants.strictAuth;
		if (route.partner && !route.auth)
			return authenticatePartner(authorization, this.partner, route.segment, strict);
		// A deleted user's token stops working on the routes with their own check too.
		const user = route.auth
			? route.auth(authorization, {
					secret: this.secret,
					permanentTokens: this.state.permanentTokens,
					partner: this.partner,
					variants: this.variants,
					segment: route.segment,
				})
			: authenticate(authorization, this.secret, this.state.permanentTokens, strict);
		return assertNotDeleted(this.state, user);
	}
}
