/**
 * How much runs at once in this node, decided here and nowhere else; every fan-out asks:
 * - requests: the client's limiter (`requestLimits`): Items in Flight as a fixed cap, or Auto's
 *   slow start under the process's shared ceiling;
 * - units (single items and batch units, the scheduler) and an execution's other fan-outs
 *   (`Execution.inFlight`): `unitsAtOnce`, Items in Flight (Auto: its ceiling); with the rollout
 *   guard on, also no more than the client's window at that moment;
 * - the steps of one paused installation's update: `STEPS_AT_ONCE`, all of them (their requests
 *   wait in the limiter);
 * - the reads one call fans out into (a list's missing details, a picker's probes): `READS_AT_ONCE`.
 */

/** Items in Flight's value for Auto (slow start). */
export const AUTO_IN_FLIGHT = 0;
/** Auto starts with this many in flight: a run of 8 items or fewer never has more than 8. */
export const SLOW_START = 8;
/**
 * Auto multiplies the limit by this with each window of answers without 429. Each new window opens
 * new connections (a TLS handshake each), so fewer, bigger steps keep pace with n8n's HTTP Request
 * node (measured in docs/performance.md).
 */
export const GROWTH = 8;
/** Auto's ceiling: 200 items in three windows (8, 64, 128). */
export const AUTO_CAP = 128;

/** Reads in flight at once when one call fans out (a list's missing details, a picker's probes). */
export const READS_AT_ONCE = 4;

/**
 * The steps of one installation's paused update run at once, each step's PUTs in item order: the
 * client's limiter keeps their requests within Items in Flight.
 */
export const STEPS_AT_ONCE = Number.POSITIVE_INFINITY;

/**
 * The client's requests in flight: a number the user set is a fixed cap of this execution alone;
 * Auto starts at SLOW_START, grows to AUTO_CAP and shares the process's ceiling.
 */
export function requestLimits(itemsInFlight: number): {
	max: number;
	start?: number;
	shared: boolean;
} {
	return itemsInFlight === AUTO_IN_FLIGHT
		? { max: AUTO_CAP, start: SLOW_START, shared: true }
		: { max: itemsInFlight, shared: false };
}

/**
 * Units (or other entries of one execution) started at once: Items in Flight, Auto as its ceiling
 * (the client's limiter then holds their requests to its window). `window`: the client's window
 * now, given when the rollout guard is on, so that units start as it allows (at least one).
 */
export function unitsAtOnce(itemsInFlight: number, window?: number): number {
	const cap = itemsInFlight === AUTO_IN_FLIGHT ? AUTO_CAP : itemsInFlight;
	return window === undefined ? cap : Math.max(1, Math.min(cap, window));
}
