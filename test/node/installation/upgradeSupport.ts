/** What the Installation → Upgrade tests share: parameters, the emulator's fields, the log's statuses. */
import type { Emulator } from '../../../emulator';
export { upgradeParams } from '../../support/upgrades';

export const writes = (calls: string[]) => calls.filter((call) => !call.startsWith('GET'));

/** The step ID of an installation's automation made from `templateId`, by its place. */
export function stepOf(emu: Emulator, installationId: number, templateId: number, step: number) {
	const bundle = [...emu.state.bundles.values()].find(
		(b) => b.installationId === installationId && b.templateId === templateId,
	)!;
	return bundle.stepIds[step];
}

/** One field of that step, as the emulator holds it (a test may set its value). */
export function fieldOf(
	emu: Emulator,
	installationId: number,
	templateId: number,
	step: number,
	code: string,
) {
	const stepId = stepOf(emu, installationId, templateId, step);
	return emu.state.bundleData.get(stepId)!.fields.find((f) => f.name === code)!;
}

/** The IDs of the active installations with this title, in order. */
export const activeCopies = (emu: Emulator, title: string) =>
	[...emu.state.installations.values()]
		.filter((i) => i.title === title && i.status === 1)
		.map((i) => i.id)
		.sort((a, b) => a - b);

/**
 * Replays the request log's status changes (PLAY, PAUSE): whether two
 * installations were ever active at once (installs start paused). `start`: those active before.
 */
export function neverBothActive(emu: Emulator, start: number[]): boolean {
	// The emulator's own count of the moments two copies were active (emulator/activeCopies.ts).
	if (emu.state.activeCopies.events > 0) return false;
	const active = new Set(start);
	for (const entry of emu.requests) {
		const applied = entry.status >= 200 && entry.status < 300;
		const id = Number(/^\/solution\/installation\/(\d+)$/.exec(entry.path)?.[1]);
		if (!applied) continue;
		if (entry.method === 'PLAY') active.add(id);
		if (entry.method === 'PAUSE') active.delete(id);
		if (active.size > 1) return false;
	}
	return true;
}
