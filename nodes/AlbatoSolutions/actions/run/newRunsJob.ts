/** Run → Get New: what one input item asks for, read and checked before any request. */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { sweepsByWindows } from '../../../shared/descriptions/versions';
import { endUserMemoryKey } from '../../../shared/readers/runKeys';
import { DEFAULT_LATENESS_MINUTES } from '../../../shared/readers/runs';
import type { AlbatoClient } from '../../../shared/transport/client';
import { idParameter, numberInRange, oneOf, toId } from '../params';
import { readDateOffset, readStatusFilter, type StatusFilter } from './runFilters';
import { DEFAULT_LIMITS, type Reading } from './runMemory';

const RUNS_OF = ['endUser', 'installation', 'bundle'] as const;

export interface Job extends Reading {
	itemIndex: number;
	/**
	 * The customer and scope: keys the memory (base URL, partner and End User ID, or the token's
	 * user).
	 */
	key: string;
	endUserId?: string;
	scope: (typeof RUNS_OF)[number];
	installationId?: number;
	bundleId?: number;
	status: StatusFilter;
	/** Group Into Incidents: remind after this many ms (0: never); undefined: runs, not incidents. */
	incidents?: { remindAfterMs: number };
	/** From node version 5: the sweep by windows, its group and the runs' allowed lateness. */
	windowed?: { group: string; latenessMs: number };
}

export function readJob(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number): Job {
	const runsOf = ctx.getNodeParameter('runsOf', itemIndex, 'endUser');
	const scope = oneOf(ctx, runsOf, 'Runs Of', { allowed: RUNS_OF }, itemIndex);
	const installationId =
		scope === 'endUser' ? undefined : idParameter(ctx, 'installationId', 'Installation', itemIndex);
	const bundleId =
		scope === 'bundle'
			? toId(ctx, ctx.getNodeParameter('bundleId', itemIndex, ''), 'Automation (Bundle)', itemIndex)
			: undefined;
	const filters = ctx.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const limits = {
		perEndUser: numberInRange(
			ctx,
			options.maxRunsPerCustomer,
			'Options → Max Remembered Runs per Customer',
			{ min: 10, whole: true, fallback: DEFAULT_LIMITS.perEndUser },
			itemIndex,
		),
		// Max Remembered Runs in Total is retired (docs/runs.md, "Bounded memory"): a saved value is
		// ignored; static data keeps at most its old default.
		total: DEFAULT_LIMITS.total,
	};
	// The customer is read (and End User ID checked) before any request.
	const principal = client.principal(itemIndex);
	return {
		itemIndex,
		key: endUserMemoryKey(principal, scope, installationId, bundleId),
		endUserId: client.partner?.endUserId(itemIndex),
		scope,
		installationId,
		bundleId,
		status: readStatusFilter(ctx, filters.status, itemIndex),
		incidents: readIncidents(ctx, itemIndex),
		offset: readDateOffset(ctx, options.dateOffsetMinutes, itemIndex),
		limits,
		windowed: sweepsByWindows(ctx.getNode()) ? readWindowed(ctx, options, itemIndex) : undefined,
	};
}

/** Options → Sweep Group (any text; "" is the node's one group) and Allowed Lateness (Minutes). */
function readWindowed(
	ctx: IExecuteFunctions,
	options: IDataObject,
	itemIndex: number,
): Job['windowed'] {
	const group = options.sweepGroup ?? '';
	if (typeof group !== 'string' && typeof group !== 'number')
		throw new NodeOperationError(ctx.getNode(), 'Options → Sweep Group must be a text', {
			itemIndex,
		});
	const minutes = numberInRange(
		ctx,
		options.latenessMinutes,
		'Options → Allowed Lateness (Minutes)',
		{ min: 0, max: 1440, whole: true, fallback: DEFAULT_LATENESS_MINUTES },
		itemIndex,
	);
	return { group: String(group).trim(), latenessMs: minutes * 60_000 };
}

/** Group Into Incidents, with Remind After (Hours): a number of at least 0 (fractions allowed). */
function readIncidents(ctx: IExecuteFunctions, itemIndex: number): Job['incidents'] {
	if (!ctx.getNodeParameter('groupIntoIncidents', itemIndex, false)) return undefined;
	const hours = numberInRange(
		ctx,
		ctx.getNodeParameter('remindAfterHours', itemIndex, 0),
		'Remind After (Hours)',
		{ min: 0, fallback: 0 },
		itemIndex,
	);
	return { remindAfterMs: hours * 3600000 };
}
