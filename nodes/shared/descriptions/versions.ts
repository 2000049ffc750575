import type { DisplayCondition, INode, INodeProperties } from 'n8n-workflow';

/**
 * The action node's versions, as n8n's light versioning keeps them: one description, each property
 * shown for the versions it belongs to (`displayOptions.show['@version']`), each operation reading
 * by `getNode().typeVersion`. A change that would break a saved workflow (a renamed or removed
 * parameter, a changed default or output shape) adds a version and keeps the old one working.
 *  - 1: the first descriptions. Four parameters were saved under two names at this version (the
 *    first `title`, `fieldMapper`, `scope`, `stepId`; then `connectionName`,
 *    `connectionFieldMapper`, `runsOf`, `runStepId`): it reads both (`renamedIn2`).
 *  - 2: parameter names that never carry a value over between resources.
 *  - 3: Installation → Ensure gives each of `otherInstallations` its `status` as
 *    `installation.status` gives it (1 active, 0 paused), where versions 1 and 2 keep the words
 *    ("active", "paused") a saved workflow may compare with; and under "Continue (using error
 *    output)" an error item is `{ error, message }` only (what every n8n routes to the error
 *    output: `errorItemKeepsDetails`), where versions 1 and 2 add `details`, which n8n before
 *    2.36 sends to the success output.
 *  - 4: Installation → Ensure pauses the other active copies of its installation (same solution
 *    and title: twins a race left running) unless Options → Pause Other Active Copies is set to
 *    off; versions 1 to 3 leave them running unless it is on (`pausesOtherCopies`).
 *  - 5: Run → Get New sweeps by windows of time, claimed in n8n's deduplication store, and keeps
 *    nothing per end user or run (`sweepsByWindows`); a run is returned once its Allowed Lateness
 *    has passed. Versions 1 to 4 keep the memory of runs returned (their saved memory still holds).
 *
 * Both names saved at version 1: the first name is read when it holds a value, the new name otherwise.
 */
export const NODE_VERSIONS = [1, 2, 3, 4, 5];
export const CURRENT_NODE_VERSION = 5;

function withVersion(
	properties: INodeProperties[],
	condition: number | DisplayCondition,
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...property.displayOptions?.show, '@version': [condition] },
		},
	}));
}

/** Properties of workflows saved at exactly `version` (a version kept as it was saved). */
export const shownAt = (version: number, properties: INodeProperties[]) =>
	withVersion(properties, version);

/** Properties of workflows saved at `version` or later. */
export const shownFrom = (version: number, properties: INodeProperties[]) =>
	withVersion(properties, { _cnd: { gte: version } });

/** Properties kept for workflows saved before `version`, under their old names. */
export const shownBefore = (version: number, properties: INodeProperties[]) =>
	withVersion(properties, { _cnd: { lt: version } });

/** A parameter's two names: the first one version 1 saved, and the one since. */
export interface Renamed {
	1: string;
	2: string;
}

const HOLDS_VALUE: DisplayCondition = { _cnd: { exists: true } };

/** Hidden while `name` holds a value (or, with `holds: false`, while it holds none). */
function hiddenWhen(property: INodeProperties, name: string, holds: boolean): INodeProperties {
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			hide: { ...property.displayOptions?.hide, [name]: holds ? [HOLDS_VALUE] : [''] },
		},
	};
}

/**
 * A parameter that version 2 names `property.name` and version 1 saved under `first` or under the
 * new name. At version 1 n8n keeps whichever was saved and the editor shows one field: the first
 * name's while it holds a value, the new name's otherwise. A hidden copy keeps the first name's
 * value (empty when not saved) so that both conditions can read it.
 */
export function renamedIn2(property: INodeProperties, first: string): INodeProperties[] {
	const firstName = { ...property, name: first };
	return [
		...shownFrom(2, [property]),
		...shownBefore(2, [
			{ displayName: property.displayName, name: first, type: 'hidden', default: '' },
			hiddenWhen(firstName, first, false),
			hiddenWhen(property, first, true),
		]),
	];
}

/** The name a parameter is read under, by the rule of `renamedIn2`. */
export function versionedName(ctx: { getNode(): INode }, names: Renamed): string {
	const node = ctx.getNode();
	if (node.typeVersion >= 2) return names[2];
	const first = node.parameters[names[1]];
	return first === undefined || first === null || first === '' ? names[2] : names[1];
}

/**
 * Whether an error item carries `details` beside `error` and `message`. n8n sends an item to the
 * error output when its json holds only `error` (and `message`); since n8n 2.36 `details` too.
 * Setting the item's own `error` instead is no way out: every version then replaces the json with
 * the bare message. So from version 3 the error output gets `{ error, message }` on any n8n, and
 * `details` stay where nothing routes by them (plain Continue) or where they were saved (1, 2).
 */
export function errorItemKeepsDetails(node: INode): boolean {
	return node.onError !== 'continueErrorOutput' || node.typeVersion < 3;
}

/**
 * Whether installation statuses are output as words ("active", "paused"), as versions 1 and 2 of
 * the node gave them (Ensure's other installations); from version 3 as the service's codes.
 */
export function statusAsWords(node: INode): boolean {
	return node.typeVersion < 3;
}

/**
 * Whether Installation → Ensure pauses the other active copies it finds: as Options → Pause Other
 * Active Copies says when it is set, else from version 4 on (both copies active is the harm: every
 * email sent twice), and not before (a saved workflow's copies kept running).
 */
export function pausesOtherCopies(node: INode, option: unknown): boolean {
	if (typeof option === 'boolean') return option;
	return node.typeVersion >= 4;
}

/**
 * Whether Run → Get New sweeps by windows of time (from version 5: memory bounded by the number of
 * sweep groups, whatever the fleet, its runs or its age), or by the memory of the runs it returned,
 * as versions 1 to 4 saved it.
 */
export function sweepsByWindows(node: INode): boolean {
	return node.typeVersion >= 5;
}
