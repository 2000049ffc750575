/**
 * Installation → Upgrade, one customer each way. Upgrade: the old installation read, the new one
 * installed with the old one's connection settings (or the item's), the old values mapped onto it,
 * then the switch (switchOver.ts). Roll Back: the new one's values mapped back onto the old one,
 * then the switch the other way. A customer already where the item asks is reported so, and
 * nothing is sent for it.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ACTIVE, isObject, PAUSED } from '../../../../shared/readers/shapes';
import { installBody } from '../../safeInstall/installInput';
import { installSafely, TitleTakenError } from '../../safeInstall/installSafely';
import { type Found, locatePair, type Pair } from './locatePair';
import { mapValues, type Side } from './mapValues';
import { failure, readSide, switchOver } from './switchOver';
import type { UpgradeItem } from './upgradeItem';
import { upgradeReport } from './upgradeReport';

const PREVIEW_NEW =
	'The new installation does not exist yet: which values map is known once it is installed (its steps and fields come from the install). Preview checked the connection settings.';

const NEVER_UPGRADED = ({ input }: UpgradeItem) =>
	`The end user has no installation "${input.title}" of solution ${input.solutionId}: never upgraded, nothing to roll back. Nothing was sent.`;

export async function upgradeCustomer(item: UpgradeItem) {
	const pair = await locatePair(item);
	const { old, new: target } = pair;
	if (target?.status === ACTIVE && old?.status !== ACTIVE)
		return upgradeReport(item, pair, {
			state: 'alreadyUpgraded',
			old: { id: old?.id ?? null, status: old?.status ?? null },
			new: { id: target.id, status: ACTIVE, created: false },
		});
	if (!old) throw nothingToMove(item, target);
	const source = await readSide(item, old.id);
	if (target === undefined && item.preview) {
		await installBody(item.ctx, item.client, inputFrom(item, source), item.itemIndex);
		return upgradeReport(item, pair, {
			state: 'upgraded',
			old: { id: old.id, status: PAUSED },
			new: { id: null, status: old.status === ACTIVE ? ACTIVE : PAUSED, created: true },
			notice: PREVIEW_NEW,
			leftPaused: old.status !== ACTIVE,
		});
	}
	const { id, created } = target
		? { id: target.id, created: false }
		: await installNew(item, pair, source);
	const roles = { oldId: old.id, newId: id };
	const to = await readSide(item, id).catch(async (error: Error) => {
		throw await failure(item, error, 'values', roles);
	});
	const values = mapValues(source, to, item.renames);
	const from = { id: old.id, active: old.status === ACTIVE };
	if (!item.preview) await switchOver(item, { from, to, changes: values.changes, roles });
	const done = !created && !from.active && !values.changes.length;
	return upgradeReport(item, pair, {
		state: done ? 'alreadyUpgraded' : 'upgraded',
		old: { id: old.id, status: PAUSED },
		new: { id, status: from.active ? ACTIVE : PAUSED, created },
		values,
		leftPaused: !from.active,
	});
}

export async function rollBackCustomer(item: UpgradeItem) {
	const pair = await locatePair(item);
	const { old, new: current } = pair;
	if (!old) throw nothingToMove(item, undefined);
	const newId = current?.id ?? null;
	// Never upgraded (no new installation): nothing to move back, whatever the old one's status.
	if (!current || (old.status === ACTIVE && current.status !== ACTIVE))
		return upgradeReport(item, pair, {
			state: 'alreadyRolledBack',
			old: { id: old.id, status: old.status ?? null },
			new: { id: newId, status: current?.status ?? null, created: false },
			notice: current ? undefined : NEVER_UPGRADED(item),
		});
	const to = await readSide(item, old.id);
	const source = await readSide(item, current.id);
	const renames = Object.fromEntries(Object.entries(item.renames).map(([a, b]) => [b, a]));
	const values = mapValues(source, to, renames);
	const from = { id: current.id, active: current.status === ACTIVE };
	const roles = { oldId: old.id, newId: current.id };
	if (!item.preview) await switchOver(item, { from, to, changes: values.changes, roles });
	return upgradeReport(item, pair, {
		state: from.active || values.changes.length ? 'rolledBack' : 'alreadyRolledBack',
		old: { id: old.id, status: from.active ? ACTIVE : PAUSED },
		new: { id: current.id, status: PAUSED, created: false },
		values,
		leftPaused: !from.active,
	});
}

/** The target's install input, with the old installation's connection settings when shown. */
function inputFrom(item: UpgradeItem, source: Side) {
	const shown = source.installation.credentialData;
	const choices = isObject(shown) && Object.keys(shown).length ? shown : item.input.choices;
	return { ...item.input, choices };
}

/**
 * The new installation, installed safely (never a second one). A twin another worker installed at
 * the same moment is the one used: this item's copy is paused and reported.
 */
async function installNew(
	item: UpgradeItem,
	pair: Pair,
	source: Side,
): Promise<Found & { created: boolean }> {
	const { ctx, client, itemIndex, input } = item;
	try {
		const installed = await installSafely(ctx, client, {
			solutionId: input.solutionId,
			title: input.title,
			body: await installBody(ctx, client, inputFrom(item, source), itemIndex),
			itemIndex,
			refuseDuplicateTitle: true,
			titleScope: 'solution',
			checkWindow: input.checkWindow,
			listed: pair.listed,
		});
		return { id: Number(installed.id), status: undefined, created: true };
	} catch (error) {
		if (error instanceof TitleTakenError)
			return { id: Number(error.existingId), status: undefined, created: false };
		const keeper = (error as Error & { details?: IDataObject }).details?.duplicateOf;
		if (typeof keeper === 'number') {
			pair.reports.push(error as Error);
			return { id: keeper, status: undefined, created: false };
		}
		throw await failure(item, error as Error, 'install', { oldId: pair.old!.id, newId: undefined });
	}
}

/** Neither installation to move from: nothing is sent. */
function nothingToMove(item: UpgradeItem, target: Found | undefined): NodeOperationError {
	const { title, solutionId } = item.input;
	return new NodeOperationError(
		item.ctx.getNode(),
		`The end user has no installation "${title}" of solution ${item.fromSolutionId} to ${item.direction === 'upgrade' ? 'upgrade' : 'roll back to'}`,
		{
			itemIndex: item.itemIndex,
			description:
				target === undefined
					? `Nothing was sent. Check Title (exact) and Current Solution; the end user has no installation "${title}" of solution ${solutionId} either.`
					: `Nothing was sent. Installation ${target.id} of solution ${solutionId} is the customer's copy, and it is paused: start it with Installation → Start, or install the customer again with Installation → Ensure.`,
		},
	);
}
