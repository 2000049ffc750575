/**
 * Helpers of the billing tests: the /wl billing paths and a user owning an active
 * installation.
 */
import type { Emulator } from '../../../emulator';

export const LIST_PLANS_PATH = /^\/wl\/[^/]+\/list-plans$/;
export const BLOCK_PATH = /^\/wl\/[^/]+\/block-user-plan$/;
export const ADD_TRX_PATH = /^\/wl\/[^/]+\/add-user-plan-transactions$/;

/** Gives installation 5002 (solution 101) to a /wl end user, active. */
export function giveActiveInstallation(emu: Emulator, endUserId: string, id = 5002): void {
	const installation = emu.state.installations.get(id)!;
	installation.userId = `${emu.partner.name}:${endUserId}`;
	installation.status = 1;
}

/**
 * The two Basic styles of the master token (Albato's examples: raw; HTTP Basic: base64 "token:").
 */
export const BASIC_STYLES = [
	['Basic <token> (Albato examples)', 'raw'],
	['Basic base64(token:)', 'usernamePassword'],
] as const;
