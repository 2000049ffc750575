/**
 * Transactions Running Low: the end user's transactions left this month (`trxLimit` of the profile,
 * Albato's "User transaction limit left") fell below Running Low Below, a count or a share of the
 * plan's monthly transactions. Reported once each time it falls below: again only after a top-up, a
 * new plan or a new month has lifted it back. The first poll reports it when it is low then. End
 * users are the partner's: the Partner API credential only.
 */
import type { IDataObject, INodePropertyOptions, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PARTNER_API } from '../shared/constants';
import { getUserProfile, profilePlan } from '../shared/api/endUser';
import {
	type CountOrPercent,
	countOrPercentOf,
	describeCountOrPercent,
} from '../shared/readers/countOrPercent';
import { withoutTokens } from '../shared/readers/mintedToken';
import { countOf, usedShareOf } from '../shared/readers/plans';
import { idOf } from '../shared/readers/shapes';
import type { AlbatoClient } from '../shared/transport/client';
import { authenticationOf } from '../shared/transport/partnerCredential';
import { type EventKind, type KindPoll, type PollScope, staticDataOf } from './eventKind';

const USAGE_OPTIONS = [
	{
		name: 'Transactions Running Low',
		value: 'transactionsRunningLow',
		description:
			"The end user's transactions left this month fell below Running Low Below (Partner API credential). Reported once each time it falls; the first poll reports it when low then.",
	},
] as const satisfies readonly INodePropertyOptions[];

export const USAGE_EVENTS = USAGE_OPTIONS.map((option) => option.value);

/** Running Low Below: transactions left, or percent of the plan's monthly transactions. */
export type LowLimit = CountOrPercent;

/**
 * What the trigger keeps for Transactions Running Low (static data key `usageEvents`): whether the
 * end user was below the limit at the last poll that could tell, and for whom and which limit.
 */
export interface UsageBaseline extends IDataObject {
	/** Whose usage (base URL and end user; never a token). */
	owner: string;
	/** The limit it was judged by, as written ("10%", "500"). */
	limit: string;
	low: boolean;
}

const LABEL = 'Running Low Below';

const BASELINE_KEY = 'usageEvents';

export const usageKind: EventKind = {
	options: USAGE_OPTIONS,
	events: USAGE_EVENTS,
	baselineKey: BASELINE_KEY,
	choose(ctx) {
		if (authenticationOf(ctx) !== PARTNER_API)
			throw new NodeOperationError(
				ctx.getNode(),
				'Transactions Running Low needs the Albato Partner API credential',
				{
					description:
						'Transactions are counted per end user, which only the partner can read: set Authentication to "Partner API" and choose an Albato Partner API credential',
				},
			);
		const limit = readLowLimit(ctx);
		return {
			poll: async (scope) => await pollUsage(scope, limit),
			sample: async (scope) => (await readUsage(scope.client, limit)).item,
		};
	},
};

/** "500" (transactions left) or "10%" / "2.5 %" (of the plan's monthly transactions). */
export function readLowLimit(ctx: IPollFunctions): LowLimit {
	const value = ctx.getNodeParameter('runningLowBelow', '10%') as unknown;
	const limit = countOrPercentOf(value, { zero: false });
	if (limit) return limit;
	throw new NodeOperationError(
		ctx.getNode(),
		`${LABEL} must be a whole number of transactions (e.g. 500) or a percentage above 0 and up to 100 (e.g. 10%), got ${JSON.stringify(value)}`,
		{ description: `Set ${LABEL} under the Events` },
	);
}

/**
 * Whether `left` is below the limit; undefined when it cannot be told: no count of transactions
 * left, or a percentage without the plan's monthly transactions (no plan, or a plan of 0).
 */
export function isLow(
	left: number | undefined,
	monthlyTrx: number | undefined,
	limit: LowLimit,
): boolean | undefined {
	if (left === undefined) return undefined;
	if ('count' in limit) return left < limit.count;
	if (monthlyTrx === undefined || monthlyTrx <= 0) return undefined;
	return left < (monthlyTrx * limit.percent) / 100;
}

/** The profile now, judged against the limit: the event's item and whether it is low. */
async function readUsage(client: AlbatoClient, limit: LowLimit) {
	const partner = client.partner!;
	const data = await getUserProfile(client, partner, partner.endUserId(undefined), {
		transactions: false,
	});
	const { id, ...profile } = withoutTokens(data) as IDataObject;
	// The plan's size matters only to a percentage, and is read only then (list-plans, once).
	const monthlyTrx =
		'percent' in limit
			? (await profilePlan(client, partner, profile.planId))?.monthlyTrx
			: undefined;
	const left = countOf(profile.trxLimit);
	const low = isLow(left, monthlyTrx, limit);
	const item: IDataObject = {
		event: 'transactionsRunningLow',
		albatoUserId: idOf(id) ?? null,
		...profile,
		monthlyTrx: monthlyTrx ?? null,
		trxUsedShare: usedShareOf(left, monthlyTrx) ?? null,
		runningLowBelow: describeCountOrPercent(limit),
		runningLow: low ?? null,
	};
	return { item, low };
}

/**
 * One poll: an item when the end user is low now and was not at the last poll (or this is the
 * first poll, for this end user and this limit). When it cannot be told, nothing is reported and
 * the baseline stays as it was.
 */
async function pollUsage(scope: PollScope, limit: LowLimit): Promise<KindPoll> {
	const staticData = staticDataOf(scope);
	const owner = scope.owner ?? '';
	const written = describeCountOrPercent(limit);
	const stored = staticData[BASELINE_KEY] as UsageBaseline | undefined;
	const previous = stored?.owner === owner && stored.limit === written ? stored : undefined;
	const { item, low } = await readUsage(scope.client, limit);
	if (low === undefined) return { items: [], commit: () => {} };
	return {
		items: low && previous?.low !== true ? [item] : [],
		commit: () => void (staticData[BASELINE_KEY] = { owner, limit: written, low }),
	};
}
