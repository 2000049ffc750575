import type { INodeProperties } from 'n8n-workflow';

export const includeTokenOption: INodeProperties = {
	displayName: 'Include Token in Output (Secret)',
	name: 'includeToken',
	type: 'boolean',
	default: false,
	description:
		"Whether to put the end user's token in the output. Anyone who can open this execution can then act as the end user until the token expires; leave off unless the next node needs it.",
};

/** `validUntil` as ISO text for outputs, when known. */
export const isoOrNull = (epochMs: number | undefined) =>
	epochMs === undefined ? null : new Date(epochMs).toISOString();
