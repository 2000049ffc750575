import type { DisplayCondition, INodeProperties } from 'n8n-workflow';

/**
 * The action node's versions, as n8n's light versioning keeps them: one description, each property
 * shown for the versions it belongs to (`displayOptions.show['@version']`), each operation reading
 * by `getNode().typeVersion`. A change that would break a saved workflow (a renamed or removed
 * parameter, a changed default or output shape) adds a version and keeps the old one working.
 *  - 1: the first descriptions (Credential → Create's `title` and `fieldMapper`, Run's `scope` and
 *    `stepId`);
 *  - 2: parameter names that never carry a value over between resources (issue 24).
 */
export const NODE_VERSIONS = [1, 2];
export const CURRENT_NODE_VERSION = 2;

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
