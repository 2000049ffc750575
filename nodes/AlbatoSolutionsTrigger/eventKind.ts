import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { AlbatoClient } from '../shared/transport/client';
import type { IncidentBaseline } from './incidentPoll';
import type { Snapshot } from './installationEvents';
import type { RunBaseline } from './runEvents';
import type { UsageBaseline } from './usagePoll';

/**
 * The trigger's static data (of this node), saved with the workflow: each kind keeps its baseline
 * under its own key. A trigger upgraded in place reads what an earlier version stored, so a key's
 * shape never changes without the old shape still being read (test/trigger/upgrade.test.ts).
 */
export interface TriggerStaticData extends IDataObject {
	/** Installation events: the installations seen by the last poll, by id. */
	installations?: Snapshot;
	/** Whose installations they are (base URL and end user; never a token or its digest). */
	owner?: string;
	/** Run events: the runs seen ended or in progress, and whose (`scope`). */
	runEvents?: RunBaseline;
	/** Automation events: the runs already grouped (own scope) and the open incidents. */
	incidentEvents?: IncidentBaseline;
	/** Transactions Running Low: whether the end user was below the limit at the last poll. */
	usageEvents?: UsageBaseline;
}

/** What every kind of event in one poll shares: the context, one client, whose baseline it is. */
export interface PollScope {
	ctx: IPollFunctions;
	client: AlbatoClient;
	/**
	 * Whom the baseline belongs to (base URL and end user; never a token), when it can be told: a
	 * token without a subject may be a new token of the same user, so it is compared with nobody.
	 */
	owner: string | undefined;
}

/** One kind's share of a poll: its new items, and how to store its next baseline. */
export interface KindPoll {
	items: IDataObject[];
	/** Stores the next baseline; called only once every chosen kind polled without failing. */
	commit: () => void;
}

/** A kind of event with its parameters read and checked (before any request). */
export interface ChosenKind {
	/** Trigger mode: what changed since the baseline kept in the workflow's static data. */
	poll: (scope: PollScope) => Promise<KindPoll>;
	/** "Fetch Test Event": one real sample, the baseline untouched; NoSampleError when none. */
	sample: (scope: PollScope) => Promise<IDataObject>;
}

/**
 * A kind of event the trigger watches (installations, runs…), each with its own baseline. A new
 * kind is one object of this shape, added to KINDS in poll.ts, and its options in the node.
 */
export interface EventKind {
	/** Its values of the Events parameter. */
	events: readonly string[];
	/** Reads and checks its own parameters; called only when one of its events is chosen. */
	choose: (ctx: IPollFunctions, chosen: readonly string[]) => ChosenKind;
}
