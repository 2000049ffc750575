import { AUTO_IN_FLIGHT } from './concurrency';

/**
 * How the transport sends requests; set per execution from Request Options
 * (actions/requestOptions.ts).
 */
export interface TransportOptions {
	/** Milliseconds before a request that has not answered is abandoned. */
	timeout: number;
	/**
	 * Retries of a safe (idempotent) call after 502, 503, 504 or a network error (429s: see
	 * request()).
	 */
	maxRetries: number;
	/** Total milliseconds that one call may spend waiting between its retries. */
	retryBudget: number;
	/**
	 * Items in Flight: a fixed cap on requests at once (fewer while the service answers 429), or
	 * AUTO_IN_FLIGHT (0): slow start.
	 */
	concurrency: number;
	/**
	 * Request Options → Preview: no call that may change the service is sent (the client refuses it,
	 * whatever operation asks); reads and the partner token call are.
	 */
	preview: boolean;
}

export const DEFAULT_TRANSPORT_OPTIONS: TransportOptions = {
	timeout: 30_000,
	maxRetries: 3,
	// Long enough to sit out Retry-After of a per-minute rate window.
	retryBudget: 60_000,
	concurrency: AUTO_IN_FLIGHT,
	preview: false,
};
