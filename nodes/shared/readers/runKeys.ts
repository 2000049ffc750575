/**
 * The keys that remember runs and incidents: in the trigger's static data, in Run → Get New's
 * memory and in n8n's deduplication store. Saved workflows and stores hold them, so their text never
 * changes; "\n" separates the parts.
 */

/**
 * Run → Get New: one end user and what it watches (memory key, and the prefix of its gate keys:
 * `endUserKey` below). To be named `endUserKey` with Run → Get New's files, which import it.
 */
export const endUserMemoryKey = (
	principal: string,
	scope: string,
	installationId: number | undefined,
	bundleId: number | undefined,
) => `${principal}\n${scope}:${installationId ?? ''}:${bundleId ?? ''}`;

/** The trigger: whose runs a run baseline holds (principal, and the Installation ID filter). */
export const watchedRunsKey = (principal: string | undefined, installationId: number | undefined) =>
	`${principal ?? ''}\n${installationId ?? ''}`;

/** A run in an end user's gate: its id as the service sent it. */
export const runGateKey = (endUserKey: string, runId: unknown) => `${endUserKey}\n${String(runId)}`;

/**
 * An end user's first-sweep mark of one week (weeks since the epoch): written by earlier releases,
 * no longer written (see knownGateKey).
 */
export const sweptGateKey = (endUserKey: string, week: number) => `${endUserKey}\nswept\n${week}`;

/** An end user swept before: its next sweep is not a first one (one record, never renewed). */
export const knownGateKey = (endUserKey: string) => `${endUserKey}\nknown`;

/** A reminder in an end user's gate (see reminderKey). */
export const reminderGateKey = (endUserKey: string, reminder: string) =>
	`${endUserKey}\nremind\n${reminder}`;

/**
 * One reminder of one incident: the automation, the success before the incident (`-` when the
 * history listed starts inside it) and the number of whole periods it has been open.
 */
export const reminderKey = (
	automation: string,
	successBefore: string | undefined,
	periods: number,
) => `${automation}\n${successBefore ?? '-'}\n${periods}`;

/** One run of one automation (a run id is unique only within its automation's list). */
export const automationRunKey = (automation: string, runId: string) => `${automation}\n${runId}`;
