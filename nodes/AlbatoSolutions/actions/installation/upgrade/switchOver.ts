/**
 * Installation → Upgrade's switch, the same both ways (upgrade: old → new; Roll Back: new → old):
 * the values written into the target while it is paused, the source paused, the target started.
 * A source that was paused before (the customer deliberately off) leaves the target paused too: it
 * is never started.
 * Never both active: the target starts only once the source is paused. On a failure after the
 * source was paused, the target is paused again (a start whose answer was lost may have applied)
 * and, once it surely is, the source started again, before the item fails; the failure says the
 * state each is left in (a target that could not be paused keeps the source paused: one may then
 * be left with none active, and says so, rather than two).
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordsByBundle } from '../../../../shared/api/bundleData';
import { getInstallation, setStatus } from '../../../../shared/api/installation';
import { bundlesOf } from '../../../../shared/readers/bundles';
import { ACTIVE, PAUSED, statusOf } from '../../../../shared/readers/shapes';
import { withSentence } from '../../withSentence';
import { applyFieldChanges } from '../ensure/applyFieldChanges';
import type { FieldChange } from '../ensure/fieldChanges';
import type { Side } from './mapValues';
import type { UpgradeItem } from './upgradeItem';

/** The steps of a switch, named in a failure's `details.failedAt` (Roll Back: pauseNew, startOld). */
export type Step = 'install' | 'values' | 'pause' | 'start';
const NAMED: Record<UpgradeItem['direction'], Record<Step, string>> = {
	upgrade: { install: 'install', values: 'values', pause: 'pauseOld', start: 'startNew' },
	rollBack: { install: 'install', values: 'values', pause: 'pauseNew', start: 'startOld' },
};

/** Each installation's part in a switch: which is the old one and which the new one. */
export interface Roles {
	oldId: number;
	newId: number | undefined;
	/** The source was active when the switch began (a failure that leaves neither active says so). */
	wasActive?: boolean;
}

/** An installation read with its automations, steps and field values. */
export async function readSide(item: UpgradeItem, id: number): Promise<Side> {
	const { client, itemIndex } = item;
	const installation = await getInstallation(client, id, { withBundles: true, itemIndex });
	const bundleIds = bundlesOf(installation).map((bundle) => Number(bundle.id));
	return { id, installation, records: await recordsByBundle(client, bundleIds, itemIndex) };
}

interface Switch {
	from: { id: number; active: boolean };
	to: Side;
	changes: FieldChange[];
	roles: Roles;
}

/** Resolves when the target is active and the source paused; otherwise throws saying the state. */
export async function switchOver(item: UpgradeItem, { from, to, changes, roles }: Switch) {
	const { ctx, client, itemIndex } = item;
	let step: Step = 'values';
	let sourcePaused = false;
	try {
		// The target is paused while its values change, and until the source is paused.
		if (statusOf(to.installation) !== PAUSED) await setStatus(client, to.id, 'PAUSE', itemIndex);
		const installation = { ...to.installation, status: PAUSED };
		if (changes.length)
			await applyFieldChanges(
				ctx,
				client,
				{ installationId: to.id, installation, changes },
				itemIndex,
			);
		step = 'pause';
		if (from.active) {
			sourcePaused = true;
			await setStatus(client, from.id, 'PAUSE', itemIndex);
		}
		// A customer that was off stays off: the target keeps the source's paused state.
		if (!from.active) return;
		step = 'start';
		const started = await setStatus(client, to.id, 'PLAY', itemIndex);
		if (statusOf(started) === PAUSED)
			throw new NodeOperationError(
				ctx.getNode(),
				`Installation ${to.id} is still paused: the service answered PLAY but did not start it`,
				{ itemIndex },
			);
	} catch (error) {
		// The source starts again only once the target is surely paused: never both active.
		const targetStopped =
			step !== 'start' || (await quietly(setStatus(client, to.id, 'PAUSE', itemIndex)));
		if (sourcePaused && targetStopped) await quietly(setStatus(client, from.id, 'PLAY', itemIndex));
		throw await failure(item, error as Error, step, { ...roles, wasActive: from.active });
	}
}

/** Whether a best-effort call succeeded (its failure is the item's error's business, not this). */
async function quietly(call: Promise<unknown>): Promise<boolean> {
	return await call.then(
		() => true,
		() => false,
	);
}

const WORD: Record<number, string> = { [ACTIVE]: 'active', [PAUSED]: 'paused' };

/** Each installation's status read again after a failure: a word, or "unknown" when unreadable. */
async function stateOf(item: UpgradeItem, id: number | undefined): Promise<string> {
	if (id === undefined) return 'not installed';
	const read = await getInstallation(item.client, id, { itemIndex: item.itemIndex }).catch(
		() => undefined,
	);
	const status = statusOf(read);
	return status === undefined ? 'unknown' : WORD[status];
}

/**
 * The item's failure: the step's error with the state each installation was left in (one more
 * sentence, and `details` on the error output).
 */
export async function failure(
	item: UpgradeItem,
	error: Error,
	failedAt: Step,
	{ oldId, newId, wasActive }: Roles,
): Promise<Error> {
	const [oldStatus, newStatus] = [await stateOf(item, oldId), await stateOf(item, newId)];
	const left =
		`Left as it was: installation ${oldId} (${item.fromSolutionId}, old) ${oldStatus}, ` +
		(newId === undefined
			? `nothing installed of solution ${item.input.solutionId}.`
			: `installation ${newId} (${item.input.solutionId}, new) ${newStatus}.`);
	const word = item.direction === 'upgrade' ? 'upgrade' : 'roll back';
	// A customer that was on and is now off: a rerun would keep both paused (as for a customer who
	// was off before), so the item names the one to start.
	const source = item.direction === 'upgrade' ? oldId : newId;
	const again =
		wasActive && oldStatus === 'paused' && newStatus === 'paused'
			? `Neither is active now: start installation ${source} with Installation → Start (running the ${word} again would keep both paused, as for a customer who was off).`
			: `Running the ${word} again continues from here.`;
	const told = withSentence(item.ctx.getNode(), error, `${left} ${again}`, item.itemIndex);
	const details: IDataObject = {
		failedAt: NAMED[item.direction][failedAt],
		direction: item.direction,
		oldInstallationId: oldId,
		oldStatus,
		newInstallationId: newId ?? null,
		newStatus,
	};
	return Object.assign(told, { details });
}
