import type { IDataObject, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';

import type { AlbatoClient } from '../shared/transport/client';

/**
 * The trigger's static data (of this node), saved with the workflow: each kind keeps its baseline
 * under its own key (EventKind.baselineKey) and reads it itself. A trigger upgraded in place reads
 * what an earlier version stored, so a key's shape never changes without the old shape still being
 * read (test/trigger/upgrade.test.ts).
 */
export type TriggerStaticData = IDataObject;

/** The node's static data, where each kind keeps its baseline. */
export const staticDataOf = (scope: PollScope) =>
	scope.ctx.getWorkflowStaticData('node') as TriggerStaticData;

/** What every kind of event in one poll shares: the context, one client, whose baseline it is. */
export interface PollScope {
	ctx: IPollFunctions;
	client: AlbatoClient;
	/**
	 * Whom the baseline belongs to (base URL and end user; never a token), when it can be told: a
	 * token without a subject may be a new token of the same user, so it is compared with nobody.
	 */
	owner: string | undefined;
	/** In partner mode `{ endUserId }`, the End User ID polled for; else empty. */
	endUser: IDataObject;
	/**
	 * A read that several kinds need (the runs, for run and automation events): the first call with
	 * a key reads, the later ones of this poll get the same answer.
	 */
	once: <T>(key: string, read: () => Promise<T>) => Promise<T>;
}

/** One kind's share of a poll: its new items, and how to store its next baseline. */
export interface KindPoll {
	items: IDataObject[];
	/** Stores the next baseline; called only once every chosen kind polled without failing. */
	commit: () => void;
}

/** A kind of event with its parameters read and checked (before any request). */
export interface ChosenKind {
	/**
	 * Trigger mode, before any kind polls: tells the reads it shares with other kinds what it needs
	 * of them (the runs: how far back, runReach.ts).
	 */
	plan?: (scope: PollScope) => void;
	/** Trigger mode: what changed since the baseline kept in the workflow's static data. */
	poll: (scope: PollScope) => Promise<KindPoll>;
	/** "Fetch Test Event": one real sample, the baseline untouched; NoSampleError when none. */
	sample: (scope: PollScope) => Promise<IDataObject>;
}

/**
 * A kind of event the trigger watches (installations, runs…), each with its own baseline. A new
 * kind is one object of this shape, added to KINDS in poll.ts: the node's Events list is built from
 * the kinds' options.
 */
export interface EventKind {
	/** Its entries of the Events list. */
	options: readonly INodePropertyOptions[];
	/** Its values of the Events parameter (its options' values). */
	events: readonly string[];
	/** Where its baseline is kept in the static data. */
	baselineKey: string;
	/** Reads and checks its own parameters; called only when one of its events is chosen. */
	choose: (ctx: IPollFunctions, chosen: readonly string[]) => ChosenKind;
}
