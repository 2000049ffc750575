import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { PARTNER_API } from '../../../shared/constants';
import { updateUserData } from '../../../shared/api/links';
import {
	describeUpdateStatus,
	UPDATE_STATUS,
	UPDATED,
	updateStatusOf,
} from '../../../shared/readers/links';
import type { SendAs } from '../../../shared/transport/callOptions';
import type { AlbatoClient } from '../../../shared/transport/client';
import { errorSays } from '../../../shared/transport/errors';
import { appIdProperty, optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { appIdParameter, numberInRange, type NumberRange, oneOf, toId } from '../params';
import { withSentence } from '../withSentence';

const MAX_WAIT = { fallback: 60, min: 1, max: 600, unit: 'seconds', fromText: true };
/** At least 1 s between two POSTs: each one asks the service to queue a refresh. */
const INTERVAL = { fallback: 5, min: 1, max: 60, unit: 'seconds', fromText: true };

export const option = {
	name: 'Refresh User Data',
	action: 'Refresh the user data of a connection',
	description: "Ask Albato to update a connection's user data, optionally until it is done",
};

export const effect = 'write';

export const description: INodeProperties[] = [
	appIdProperty('connectionPartnerId', 'The app of the connection'),
	{
		displayName: 'Connection ID',
		name: 'connectionId',
		type: 'string',
		default: '',
		required: true,
		description:
			'The connection (credential) to refresh, e.g. the credentialId of Credential → Get Link Status',
	},
	{
		displayName: 'Wait Until Updated',
		name: 'waitUntilUpdated',
		type: 'boolean',
		default: false,
		description:
			'Whether to ask again until updateStatus is 3 (updated), up to Max Wait; without it the first answer is output',
	},
	optionsCollection([
		{
			displayName: 'Authorize As',
			name: 'authorizeAs',
			type: 'options',
			displayOptions: { show: { '/authentication': [PARTNER_API] } },
			default: 'master',
			description:
				'Which token goes as Bearer (with an Access Token credential, its token is sent)',
			options: [
				{
					name: 'End User',
					value: 'endUser',
					description: "The End User ID's token (the connection's owner)",
				},
				{
					name: 'Master Token (Documented)',
					value: 'master',
					description:
						"The credential's master token as Bearer, as Albato's page shows; with Send Master Token As: Auto, on a 401 the End User ID's token once, remembered",
				},
			],
		},
		{
			displayName: 'Max Wait (Seconds)',
			name: 'maxWait',
			type: 'number',
			default: 60,
			typeOptions: { minValue: MAX_WAIT.min, maxValue: MAX_WAIT.max },
			description: 'With Wait Until Updated: how long to keep asking before giving up',
		},
		{
			displayName: 'Poll Interval (Seconds)',
			name: 'pollInterval',
			type: 'number',
			default: 5,
			typeOptions: { minValue: INTERVAL.min, maxValue: INTERVAL.max, numberPrecision: 1 },
			description: 'With Wait Until Updated: the pause between two requests',
		},
	]),
];

/** What a refused update-user-data adds when the node sent the end user's own token. */
const MASTER_ONLY =
	'update-user-data may take only the master account token ("Authorization: Bearer <master account token>" on Albato\'s page), which an Albato Solutions API credential does not hold: run this operation with Authentication: Partner API (Options → Authorize As: Master Token).';

interface Options {
	authorizeAs?: unknown;
	maxWait?: unknown;
	pollInterval?: unknown;
}

/** What one item asks for, each value checked before anything is sent. */
interface Refresh {
	partnerId: number;
	connectionId: number;
	wait: boolean;
	maxWait: number;
	interval: number;
	/** The master token as Bearer (Albato's page), or the end user's token. */
	sendAs: SendAs;
}

/**
 * POST /credentials/{partnerId}/{credentialId}/update-user-data. Albato documents no read call, so
 * the wait sends the same POST again ("if updateStatus is 1 or 2, wait and retry until it becomes
 * 3").
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const refresh = readRefresh(this, client, itemIndex);
	const { partnerId, connectionId, wait } = refresh;
	let done: { status: number | undefined; requests: number };
	try {
		done = await refreshUntilDone(client, refresh, itemIndex);
	} catch (error) {
		// Albato's page asks for "the master account token", which an Access Token credential lacks.
		if (client.partner === undefined && errorSays(error, 'deniedAccess'))
			throw withSentence(this.getNode(), error, MASTER_ONLY, itemIndex);
		throw error as Error;
	}
	const { status, requests } = done;
	if (wait && status !== UPDATED) throw notUpdated(this, refresh, { status, requests }, itemIndex);
	return {
		partnerId,
		connectionId,
		updateStatus: status ?? null,
		updateStatusName: status === undefined ? null : (UPDATE_STATUS[status] ?? null),
		updated: status === UPDATED,
		requests,
	};
}

/** update-user-data is itself the only way to learn the status: nothing is sent. */
export async function preview(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const { partnerId, connectionId } = readRefresh(this, client, itemIndex);
	const none = { updateStatus: null, updateStatusName: null, updated: false, requests: 0 };
	return { partnerId, connectionId, ...none };
}

function readRefresh(ctx: IExecuteFunctions, client: AlbatoClient, itemIndex: number): Refresh {
	const partnerId = appIdParameter(ctx, 'connectionPartnerId', itemIndex);
	const connectionId = toId(
		ctx,
		ctx.getNodeParameter('connectionId', itemIndex, ''),
		'Connection ID',
		itemIndex,
	);
	const wait = ctx.getNodeParameter('waitUntilUpdated', itemIndex, false) === true;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as Options;
	const option = (value: unknown, label: string, range: NumberRange) =>
		numberInRange(ctx, value, `Options → ${label}`, range, itemIndex);
	const maxWait = option(options.maxWait, 'Max Wait (Seconds)', MAX_WAIT);
	const interval = option(options.pollInterval, 'Poll Interval (Seconds)', INTERVAL);
	const authorizeAs = oneOf(
		ctx,
		options.authorizeAs,
		'Options → Authorize As',
		{ allowed: ['master', 'endUser'], fallback: 'master' },
		itemIndex,
	);
	const sendAs: SendAs =
		client.partner !== undefined && authorizeAs !== 'endUser' ? 'masterBearer' : 'endUser';
	return { partnerId, connectionId, wait, maxWait, interval, sendAs };
}

/**
 * The POST, and with Wait Until Updated the same POST again until updated. Bounded by the time
 * passed (slow answers count), the last request at the bound at the latest.
 */
async function refreshUntilDone(client: AlbatoClient, refresh: Refresh, itemIndex: number) {
	const { partnerId, connectionId, sendAs, wait, interval } = refresh;
	const deadline = Date.now() + refresh.maxWait * 1000;
	let status: number | undefined;
	let requests = 0;
	let atBound = false;
	for (;;) {
		status = updateStatusOf(
			await updateUserData(client, partnerId, connectionId, sendAs, itemIndex),
		);
		requests++;
		const left = deadline - Date.now();
		if (!wait || status === UPDATED || atBound || left <= 0) break;
		// A timer may wake a millisecond before the clock reaches the bound: the request after a
		// sleep to the bound is the last one.
		atBound = left <= interval * 1000;
		await sleep(Math.min(interval * 1000, left));
	}
	return { status, requests };
}

function notUpdated(
	ctx: IExecuteFunctions,
	{ connectionId, maxWait, interval }: Refresh,
	{ status, requests }: { status: number | undefined; requests: number },
	itemIndex: number,
) {
	return new NodeOperationError(
		ctx.getNode(),
		`Connection ${connectionId} was not updated within ${maxWait} s: the last updateStatus was ${describeUpdateStatus(status)}`,
		{
			itemIndex,
			description: `${requests} requests, ${interval} s apart at most. ${
				status === 4
					? 'Status 4 means re-queued: Albato asks to retry later.'
					: 'Raise Options → Max Wait (Seconds), or run this item again later.'
			}`,
		},
	);
}
