/**
 * Incidents per automation, from new ended runs: Run → Get New's Group Into Incidents, and the
 * trigger's Automation Failing / Automation Recovered. Pure, like the readers (it imports nothing of
 * ours): the caller gives it the new runs (as Run → Get New outputs them, oldest first) and the open
 * incidents it keeps, and stores the ones it answers.
 *
 * - the first failed run after a success (or ever) opens an incident: one `incidentOpened` item;
 * - further failures are counted, nothing is output; with Remind After, one `incidentReminder` each
 *   time that long has passed since the incident was reported (or since the last reminder);
 * - the first successful run after them resolves it: one `incidentResolved` item with how long it
 *   lasted and how many runs failed.
 * On a customer's first sweep (no memory yet) the history only sets the state: an automation failing
 * now opens its incident, incidents already over are not reported.
 */
import type { IDataObject } from 'n8n-workflow';

/** An open incident of one automation (in the customer's memory). */
export interface OpenIncident {
	/** The first failed run: id and date (epoch ms, NaN when unreadable). */
	runId: string;
	openedAt: number;
	/** Failed runs so far. */
	failedRuns: number;
	/** The last failed run's id. */
	lastRunId: string;
	/** When the last reminder went out (epoch ms), or undefined. */
	remindedAt?: number;
	installationId: unknown;
	installationTitle: unknown;
	bundleTitle: unknown;
}

/** Open incidents by automation id; at most this many per customer (the oldest dropped first). */
export type Incidents = Record<string, OpenIncident>;
export const MAX_INCIDENTS = 500;

export interface IncidentInput {
	/** Output items of the new runs (Run → Get New's shape), oldest first. */
	runs: IDataObject[];
	incidents: Incidents | undefined;
	firstSweep: boolean;
	/** Remind after this many ms open (0: never). */
	remindAfterMs: number;
	now: number;
	/** Added to every event (endUserId in partner mode). */
	customer: IDataObject;
}

const dateMs = (iso: unknown) => (typeof iso === 'string' ? Date.parse(iso) : Number.NaN);
const isoOf = (ms: number) => (Number.isNaN(ms) ? null : new Date(ms).toISOString());

function eventItem(
	event: string,
	automation: string,
	incident: OpenIncident,
	extra: IDataObject,
	customer: IDataObject,
): IDataObject {
	return {
		event,
		...customer,
		installationId: incident.installationId ?? null,
		installationTitle: incident.installationTitle ?? null,
		bundleId: Number.isFinite(Number(automation)) ? Number(automation) : automation,
		bundleTitle: incident.bundleTitle ?? null,
		openedAt: isoOf(incident.openedAt),
		failedRuns: incident.failedRuns,
		...extra,
	};
}

export function groupIntoIncidents(input: IncidentInput): {
	items: IDataObject[];
	incidents: Incidents;
} {
	const incidents = JSON.parse(JSON.stringify(input.incidents ?? {})) as Incidents;
	const items: IDataObject[] = [];
	const emit = input.firstSweep ? () => {} : (item: IDataObject) => void items.push(item);
	for (const run of input.runs) {
		const automation = String(run.bundleId ?? '');
		const open = incidents[automation];
		if (run.outcome === 'failed') {
			if (open) {
				open.failedRuns++;
				open.lastRunId = String(run.id);
				continue;
			}
			const opened: OpenIncident = {
				runId: String(run.id),
				openedAt: dateMs(run.dateCreated),
				failedRuns: 1,
				lastRunId: String(run.id),
				// Reminders count from when the incident was reported, not from the (maybe older) run.
				remindedAt: input.now,
				installationId: run.installationId ?? null,
				installationTitle: run.installationTitle ?? null,
				bundleTitle: run.bundleTitle ?? null,
			};
			incidents[automation] = opened;
			emit(
				eventItem(
					'incidentOpened',
					automation,
					opened,
					{ failedStep: run.failedStep ?? null, run },
					input.customer,
				),
			);
		} else if (run.outcome === 'succeeded' && open) {
			delete incidents[automation];
			const resolvedAt = dateMs(run.dateCreated);
			const lasted = resolvedAt - open.openedAt;
			emit(
				eventItem(
					'incidentResolved',
					automation,
					open,
					{
						resolvedAt: isoOf(resolvedAt),
						durationSeconds: Number.isNaN(lasted) ? null : Math.round(lasted / 1000),
						firstFailedRunId: Number(open.runId) || open.runId,
						run,
					},
					input.customer,
				),
			);
		}
	}
	if (input.firstSweep) {
		// Only what is still failing is news on a first sweep.
		for (const [automation, incident] of Object.entries(incidents)) {
			incident.remindedAt = input.now; // a reminder comes Remind After from now, not at once
			const run = input.runs.find((candidate) => String(candidate.id) === incident.runId);
			items.push(
				eventItem(
					'incidentOpened',
					automation,
					incident,
					{ failedStep: run?.failedStep ?? null, run: run ?? null },
					input.customer,
				),
			);
		}
	}
	if (input.remindAfterMs > 0) {
		for (const [automation, incident] of Object.entries(incidents)) {
			const since = incident.remindedAt ?? incident.openedAt;
			if (Number.isNaN(since) || input.now - since < input.remindAfterMs) continue;
			incident.remindedAt = input.now;
			items.push(
				eventItem(
					'incidentReminder',
					automation,
					incident,
					{
						openForSeconds: Number.isNaN(incident.openedAt)
							? null
							: Math.round((input.now - incident.openedAt) / 1000),
						lastFailedRunId: Number(incident.lastRunId) || incident.lastRunId,
					},
					input.customer,
				),
			);
		}
	}
	const kept = Object.entries(incidents)
		.sort(([, a], [, b]) => (b.openedAt || 0) - (a.openedAt || 0))
		.slice(0, MAX_INCIDENTS);
	return { items, incidents: Object.fromEntries(kept) };
}
