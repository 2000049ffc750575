import type { INode } from 'n8n-workflow';

/**
 * The node that unit tests of the transport hand to errors and readers: no parameters, no
 * credentials.
 */
export const node = {
	name: 'Albato',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
