/**
 * Ensure's last step: the output (the same in Preview; the router adds `preview: true`), with the
 * other active copies (same solution and title) reported beside it, as the operation's `execute`
 * or `preview` asks (reportDuplicates or previewDuplicates).
 */
import type { IDataObject } from 'n8n-workflow';

import { statusAsWords } from '../../../../shared/descriptions/versions';
import { ACTIVE, PAUSED, sameId } from '../../../../shared/readers/shapes';
import { newInstallation } from '../../safeInstall/installInput';
import type { reportDuplicates } from '../../safeInstall/reportDuplicates';
import { Reported } from '../../types';
import type { Converged } from './converge';
import type { EnsureItem } from './desiredState';
import type { Located } from './locateOrInstall';

/** How the other active copies are reported: paused (execute), or would be (preview). */
export type ReportCopies = typeof reportDuplicates;

export async function report(
	item: EnsureItem,
	{ id, created, listed, installation, changes, status }: Located & Converged,
	reportCopies: ReportCopies,
) {
	const { title } = item.desired.input;
	const { before, after } = status;
	delete installation.bundles;
	installation.status = after ?? installation.status ?? null;
	const statusChanged = before !== undefined && after !== undefined && before !== after;
	// The answer first, the large installation last (n8n shows keys in this order).
	const others = otherInstallations(
		item,
		listed.others.filter((other) => !sameId(other.id, id)),
	);
	const output = {
		...endUserFields(item),
		created,
		changed: {
			fields: changes.map(({ automation, step, code, from, value, bundleId, stepId }) => ({
				automation,
				step,
				code,
				from,
				to: value,
				bundleId,
				stepId,
			})),
			status: statusChanged ? { from: before, to: after } : null,
		},
		unchanged: !created && changes.length === 0 && !statusChanged,
		...(others.length
			? { notice: otherNotice(title, others, created), otherInstallations: others }
			: {}),
		installation,
	} as IDataObject;
	const copies = listed.activeCopies.filter((copy) => !sameId(copy.id, id));
	if (!copies.length) return output;
	return new Reported(output, await reportCopies(copies, id, output, { ...item, title }));
}

/**
 * Preview of an installation Ensure would create: its field values' current values are not known
 * yet (`from: null`).
 */
export function previewNew(item: EnsureItem): IDataObject {
	const { desired } = item;
	const installation = newInstallation(desired.input.solutionId, desired.input.title);
	return {
		...endUserFields(item),
		created: true,
		changed: {
			fields: desired.fields.map(({ automation, step, code, value }) => ({
				automation,
				step,
				code,
				from: null,
				to: value,
				bundleId: null,
				stepId: null,
			})),
			status: desired.status === undefined ? null : { from: null, to: desired.status },
		},
		unchanged: false,
		installation,
	};
}

/** In partner mode, whose installation it is (End User ID), as End User and Run outputs say. */
export function endUserFields({
	client,
	itemIndex,
}: Pick<EnsureItem, 'client' | 'itemIndex'>): IDataObject {
	const endUserId = client.partner?.endUserId(itemIndex);
	return endUserId === undefined ? {} : { endUserId };
}

/**
 * The other installations with their status as `installation.status` gives it (1 active, 0
 * paused); versions 1 and 2 of the node gave the words, and keep them (versions.ts).
 */
function otherInstallations({ ctx }: EnsureItem, others: IDataObject[]): IDataObject[] {
	if (!statusAsWords(ctx.getNode())) return others;
	const word = (status: unknown) =>
		status === ACTIVE ? 'active' : status === PAUSED ? 'paused' : null;
	return others.map((other) => ({ ...other, status: word(other.status) }));
}

/**
 * Says that the end user has other installations of the solution (legitimate, but a changed title
 * makes one).
 */
function otherNotice(title: string, others: IDataObject[], created: boolean): string {
	const names = others.map((other) => `"${String(other.title)}" (${String(other.id)})`).join(', ');
	const count = `${others.length} other installation${others.length > 1 ? 's' : ''}`;
	return created
		? `Ensure found no installation titled "${title}" and installed one. The end user has ${count} of this solution: ${names}; if one of these was meant, use its exact title (and remove the new one).`
		: `The end user has ${count} of this solution: ${names}. Ensure found "${title}" by its exact title; if one of these was meant, use its exact title.`;
}
