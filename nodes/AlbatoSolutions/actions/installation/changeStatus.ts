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
	const id = idParameter(ctx, 'installationId', 'Installation', itemIndex);
	const skip = (ctx.getNodeParameter('options', itemIndex, {}) as IDataObject).skipIfAlready;
	const checked = skip === true;
	if (!checked && !client.preview) return await setStatus(client, id, method, itemIndex);
	const wanted = method === 'PLAY' ? ACTIVE : PAUSED;
	// Unknown or another user's installation: fails here as the PLAY or PAUSE would.
	const current = await getInstallation(client, id, { itemIndex });
	const already = statusOf(current) === wanted;
	const said = checked ? { unchanged: already } : {};
	if (client.preview) return { ...current, status: wanted, ...said, preview: true };
	if (already) return { ...current, ...said };
	return { ...(await setStatus(client, id, method, itemIndex)), ...said };
}
