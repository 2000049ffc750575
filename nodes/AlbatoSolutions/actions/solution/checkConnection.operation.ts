import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { listSolutions } from '../../../shared/api/solution';
import type { AlbatoClient } from '../../../shared/transport/client';

export const option = {
	name: 'Check Connection',
	action: 'Check the connection',
	description:
		'Read the solutions once and say how each token was accepted (what the credential test cannot say)',
};

export const effect = 'read';

export const description: INodeProperties[] = [];

/**
 * GET /solution/apps as the end user (in partner mode the End User ID's token, minted with the
 * master token first): one read that proves the credential, and the form each token went in, as
 * Send Token As / Send Master Token As on Auto found it out. n8n's credential test sends one request
 * in one form; this is where a partner sees what works.
 */
export async function execute(this: IExecuteFunctions, client: AlbatoClient, itemIndex: number) {
	const solutions = await listSolutions(client, itemIndex);
	return { connected: true, solutions: solutions.length, ...client.tokenForms(itemIndex) };
}
