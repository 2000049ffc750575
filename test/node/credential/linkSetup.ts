/**
 * What the connection-by-link tests share: the operations' parameters and a link made through the
 * node.
 */
import type { INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../../emulator';
import { runNode, type NodeRun } from '../../support/setup';

export const createLinkParams = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'credential',
	operation: 'createLink',
	linkPartnerId: 201,
	linkTitle: 'Acme CRM',
	...extra,
});

export const sharingParams = (operation: string, sharingId: number | string, extra = {}) => ({
	resource: 'credential',
	operation,
	sharingId,
	...extra,
});

/** Creates a link as user-1 through the node; answers its sharing id. */
export async function linkMade(emu: Emulator): Promise<number> {
	const run = await runNode(emu, createLinkParams());
	if (run.error) throw run.error;
	return run.json[0].sharingId as number;
}

/** Every link token the emulator holds (none may appear outside a link). */
export const linkTokens = (emu: Emulator) => emu.links.list().map((link) => link.token);

/** The run's text with the links themselves taken out: what is left must not hold a link token. */
export const outsideLinks = (run: NodeRun) =>
	run.serialized.replace(/https:\/\/connect\.integrations-hub\.com\?id=[^"\\]*/g, '<link>');

/** A renewed link: a new token, the new link output, 48 h from now, the old token nowhere. */
export function expectRenewed(emu: Emulator, run: NodeRun, id: number, oldToken: string) {
	expect(emu.links.get(id)!.token).not.toBe(oldToken);
	expect(run.json[0]).toMatchObject({ sharingId: id, state: 'waiting', link: emu.links.url(id) });
	expect(
		Math.abs(emu.links.expiresAt(id) - Date.parse(run.json[0].expiresAt as string)),
	).toBeLessThan(1000);
	expect(run.serialized).not.toContain(oldToken);
}
