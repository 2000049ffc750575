/**
 * Installs a solution without ever installing it twice. The service has no idempotency key and its
 * list of installations may lag behind a POST, so:
 * - installs of the same title for the same end user run one at a time in this process;
 * - POST is sent once (again only after a 429, which applied nothing). When its answer is lost
 *   (reset, timeout), unreadable (2xx not JSON, no installation ID) or a 5xx, the installation is
 *   looked for in the list: new since the call, same title, not claimed by another item. The list
 *   is read at least 3 times over the check window; the first read that shows exactly one such
 *   installation settles it.
 * - It is never installed again on the strength of a read that shows nothing: a list that lags
 *   would make that a duplicate. When nothing settles it, the item fails with an "outcome unknown"
 *   error naming the title and any candidates, so a person checks before running it again; Refuse
 *   Duplicate Title then refuses the title for a while (it may still appear).
 */
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import type { AlbatoClient } from '../../../shared/transport/client';
import { AlbatoApiError, outcomeOf } from '../../../shared/transport/errors';
import {
	createInstallation,
	getInstallation,
	listInstallations,
} from '../../../shared/api/installation';
import {
	containDuplicates,
	recheckWaits,
	type TitleScope,
	titledAsRequested,
} from './containDuplicates';
import {
	claim,
	claimedWithTitle,
	forget,
	isClaimed,
	markUnknown,
	oneInstallAtATime,
	UNKNOWN_TTL_MS,
	unknownSince,
} from './installLedger';

/** Why an install's outcome is unknown: the message's end, and the description's start. */
interface Why {
	summary: string;
	detail: string;
}
const LOST = "the service's answer was lost";
const UNREADABLE = "the service's answer could not be read";

interface InstallRequest {
	solutionId: number;
	title: string;
	body: IDataObject;
	itemIndex: number;
	refuseDuplicateTitle: boolean;
	titleScope: TitleScope;
	/** Milliseconds to keep looking for the installation after a lost answer. */
	checkWindow: number;
	/**
	 * The end user's list as the caller read it moments before (Upgrade: to locate both copies):
	 * taken as the list of before, one read fewer per install.
	 */
	listed?: IDataObject[];
}

/** Refuse Duplicate Title: the end user has an installation with this title (Ensure adopts it). */
export class TitleTakenError extends NodeOperationError {
	constructor(
		ctx: IExecuteFunctions,
		title: string,
		readonly existingId: number | string,
		itemIndex: number,
	) {
		super(ctx.getNode(), `An installation titled "${title}" already exists (ID ${existingId})`, {
			itemIndex,
			description:
				'Nothing was installed. Choose another title, or turn off "Refuse Duplicate Title".',
		});
	}
}

export async function installSafely(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	request: InstallRequest,
): Promise<IDataObject> {
	const principal = client.principal(request.itemIndex);
	const { title, itemIndex } = request;
	const installed = await oneInstallAtATime(principal, title, async () => {
		// What existed before: tells a lost answer's installation apart from older ones, and finds
		// duplicates.
		const before = request.listed ?? (await listInstallations(client, itemIndex));
		if (request.refuseDuplicateTitle) {
			const twin =
				before.find((installation) => titledAsRequested(request, installation))?.id ??
				(await unlistedTwin(client, before, principal, request));
			if (twin !== undefined) throw new TitleTakenError(ctx, title, twin as number, itemIndex);
			// An earlier install of this title whose outcome is unknown may still appear in the list.
			const since = unknownSince(
				principal,
				title,
				request.titleScope === 'solution' ? request.solutionId : undefined,
			);
			if (since !== undefined) {
				throw new NodeOperationError(
					ctx.getNode(),
					`An earlier install of "${title}" has an unknown outcome: it may exist but not be listed yet`,
					{
						itemIndex,
						description:
							`Nothing was installed. The install at ${new Date(since).toISOString()} lost its answer. Check the end user's installations titled "${title}" ` +
							`(Installation → Get Many, Title filter). This refusal lapses at ${new Date(since + UNKNOWN_TTL_MS).toISOString()}; ` +
							'turn off "Refuse Duplicate Title" to install it now.',
					},
				);
			}
		}
		let installation: IDataObject;
		try {
			installation = await createInstallation(client, request.solutionId, request.body, itemIndex);
		} catch (error) {
			const why = whyUnknown(error);
			if (why === undefined) throw error as Error;
			installation = await findOrUnknown(ctx, client, request, before, why);
		}
		if (installation.id === undefined || installation.id === null) {
			// Installed (2xx), but the answer names no installation: find it as after a lost answer.
			installation = await findOrUnknown(ctx, client, request, before, {
				summary: UNREADABLE,
				detail: 'the service answered without an installation ID',
			});
		}
		claim(principal, installation.id, title);
		return installation;
	});
	// Other workers may have installed the same title at once: keep only the oldest running.
	if (request.refuseDuplicateTitle && !(await containDuplicates(ctx, client, request, installed)))
		installed.duplicateCheck = 'not done: the installation list could not be read';
	return installed;
}

/**
 * Why a failed POST may still have installed (its answer was lost, unreadable or a 5xx), or
 * undefined when it surely installed nothing (a 4xx refusal, `success: false`, connection refused).
 */
function whyUnknown(error: unknown): Why | undefined {
	if (!(error instanceof AlbatoApiError) || error.outcome !== 'unknown') return undefined;
	const { lost, answer, status, message } = error;
	if (lost) {
		return {
			summary: LOST,
			detail: lost.timedOut
				? 'no answer within the Timeout'
				: 'the connection broke before the answer',
		};
	}
	if (answer === 'unreadable')
		return {
			summary: UNREADABLE,
			detail: `the service answered ${status ?? '2xx'} with a body that is not valid JSON`,
		};
	return {
		summary: `the service answered ${status}`,
		detail: `the service answered ${status} (${message}), which does not tell whether it installed`,
	};
}

/**
 * The installation the lost answer was about; when it cannot be settled, marks the title and fails
 * "outcome unknown".
 */
async function findOrUnknown(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	request: InstallRequest,
	before: IDataObject[],
	why: Why,
) {
	const known = new Set(before.map((existing) => String(existing.id)));
	try {
		return await findLostInstallation(ctx, client, request, known, why);
	} catch (error) {
		markUnknown(client.principal(request.itemIndex), request.title, request.solutionId);
		throw error as Error;
	}
}

/**
 * An installation this process made with this title that the list does not show yet (it may lag):
 * its detail tells whether it still exists (404: the user removed it since; it is forgotten).
 */
async function unlistedTwin(
	client: AlbatoClient,
	before: IDataObject[],
	principal: string,
	request: InstallRequest,
) {
	const { title, itemIndex } = request;
	const listed = new Set(before.map((installation) => String(installation.id)));
	for (const id of claimedWithTitle(principal, title).reverse()) {
		if (listed.has(id)) continue;
		try {
			const installation = await getInstallation(client, id, { withStatus: false, itemIndex });
			if (installation.title === undefined || titledAsRequested(request, installation)) return id;
		} catch (error) {
			if (outcomeOf(error) !== 'notFound') throw error as Error;
			forget(principal, id);
		}
	}
	return undefined;
}

async function findLostInstallation(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	request: InstallRequest,
	known: Set<string>,
	why: Why,
): Promise<IDataObject> {
	const { itemIndex } = request;
	const reads: ListReads = { done: 0, failed: 0, lastError: '' };
	for (const wait of recheckWaits(request.checkWindow)) {
		if (wait > 0) await sleep(wait);
		let listed: IDataObject[];
		try {
			listed = await listInstallations(client, itemIndex);
			reads.done++;
		} catch (error) {
			reads.failed++;
			reads.lastError = (error as Error).message;
			continue;
		}
		// New since the call and the same title (for Ensure, of this solution when the list says which:
		// `solutionId`, or `appId` as the docs show it).
		const candidates = listed.filter(
			(installation) =>
				!known.has(String(installation.id)) &&
				titledAsRequested(request, installation) &&
				!isClaimed(client.principal(request.itemIndex), installation.id),
		);
		if (candidates.length === 1) return candidates[0];
		if (candidates.length > 1) {
			const candidateIds = candidates.map((candidate) => String(candidate.id));
			throw unknownOutcomeError(ctx, request, why, reads, candidateIds);
		}
	}
	throw unknownOutcomeError(ctx, request, why, reads, []);
}

/** How the list reads after a lost answer went. */
interface ListReads {
	done: number;
	failed: number;
	/** The message of the last failed read. */
	lastError: string;
}

/** The error that says the install may or may not have happened (context `outcome: 'unknown'`). */
function unknownOutcomeError(
	ctx: IExecuteFunctions,
	{ solutionId, title, itemIndex, checkWindow }: InstallRequest,
	why: Why,
	{ done: reads, failed: failedReads, lastError: lastReadError }: ListReads,
	candidateIds: string[],
): NodeApiError {
	const message = `The outcome of installing "${title}" is unknown: ${why.summary}`;
	const seen =
		candidateIds.length > 1
			? `Several new installations titled "${title}" appeared (IDs ${candidateIds.join(', ')}); any of them may be this item's.`
			: reads === 0
				? `The end user's installation list could not be read (${failedReads} read${failedReads === 1 ? '' : 's'} over ${checkWindow / 1000} s failed: ${lastReadError}), so nothing is known: the installation may exist.`
				: `No new installation titled "${title}" appeared in ${reads} read${reads === 1 ? '' : 's'} of the list over ${checkWindow / 1000} s` +
					(failedReads
						? ` (${failedReads} read${failedReads === 1 ? '' : 's'} failed: ${lastReadError})`
						: '') +
					'; the service may not have installed it, or its list may still lag behind.';
	const error = new NodeApiError(ctx.getNode(), { message } as JsonObject, {
		message,
		description:
			`POST /solution/${solutionId}/installation: ${why.detail}. ${seen} It was not sent again, so that it cannot be installed twice. ` +
			`Check the end user's installations titled "${title}" (Installation → Get Many, Title filter) before running this item again; ` +
			'raise Options → Lost Answer Check if the list lags further behind.',
		itemIndex,
	});
	error.context = { ...error.context, outcome: 'unknown', title, candidateIds };
	return error;
}
