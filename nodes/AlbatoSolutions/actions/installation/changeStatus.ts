/**
 * Installation → Start and Pause: PLAY or PAUSE, and when asked (Skip If Already …) or in Preview,
 * one read of the installation first: already in the wanted status, nothing is sent.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { getInstallation, setStatus, type StatusCall } from '../../../shared/api/installation';
import { optionsCollection } from '../../../shared/descriptions/common.descriptions';
import { ACTIVE, PAUSED, statusOf } from '../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../shared/transport/client';
import { idParameter } from '../params';

/** Options → Skip If Already Active / Paused (off: the classic single call). */
export function skipOption(status: 'Active' | 'Paused'): INodeProperties {
	return optionsCollection([
		{
			displayName: `Skip If Already ${status}`,
			name: 'skipIfAlready',
			type: 'boolean',
			default: false,
			description: `Whether to read the installation first (one GET more) and send nothing when it is already ${status.toLowerCase()}. The output then says so (unchanged: true). A rerun over the same installations writes nothing for those already done.`,
		},
	]);
}

export async function changeStatus(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	method: StatusCall,
	itemIndex: number,
): Promise<IDataObject> {
	const { id, checked } = readChange(ctx, itemIndex);
	if (!checked) return await setStatus(client, id, method, itemIndex);
	const current = await getInstallation(client, id, { itemIndex });
	const already = statusOf(current) === wantedStatus(method);
	if (already) return { ...current, unchanged: already };
	return { ...(await setStatus(client, id, method, itemIndex)), unchanged: already };
}

/**
 * Preview: the installation as the change would leave it. Unknown or another user's installation
 * fails here as the PLAY or PAUSE would.
 */
export async function previewStatus(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	method: StatusCall,
	itemIndex: number,
): Promise<IDataObject> {
	const { id, checked } = readChange(ctx, itemIndex);
	const current = await getInstallation(client, id, { itemIndex });
	const said = checked ? { unchanged: statusOf(current) === wantedStatus(method) } : {};
	return { ...current, status: wantedStatus(method), ...said };
}

const wantedStatus = (method: StatusCall) => (method === 'PLAY' ? ACTIVE : PAUSED);

/** The installation, and whether to read it first (Skip If Already …). */
function readChange(ctx: IExecuteFunctions, itemIndex: number) {
	const id = idParameter(ctx, 'installationId', 'Installation', itemIndex);
	const skip = (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject).skipIfAlready;
	return { id, checked: skip === true };
}
