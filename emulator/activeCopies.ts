/**
 * Two active copies of one customer's installation: the harm an upgrade must never cause (every
 * email sent twice). Each time an installation becomes active (PLAY, or an install when installs
 * start active) while its owner already has another active installation with the same title, of
 * any solution, the emulator counts it and names the customer and title. `npm run bench:fleet`
 * reads it throughout a job (`POST /__emulator/fleet/status` → `bothActive`), tests through
 * `activeCopiesOf(emu.state)`. Cleared with the fixtures (reset).
 */
import { recordsOf } from './indexedMap';
import type { EmulatorState, InstallationRecord } from './types';

class ActiveCopies {
	events = 0;
	private readonly copies = new Set<string>();

	clear(): void {
		this.events = 0;
		this.copies.clear();
	}

	/** Called once `installation` is active: counts it when another copy is active too. */
	started(state: EmulatorState, installation: InstallationRecord): void {
		const twin = recordsOf(state.installations, installation.userId).some(
			(other) =>
				other.id !== installation.id && other.title === installation.title && other.status === 1,
		);
		if (!twin) return;
		this.events++;
		this.copies.add(`${installation.userId}\n${installation.title}`);
	}

	/** How often two copies were active at once, and whose (customer and title, each once). */
	summary() {
		const copies = [...this.copies].map((key) => {
			const [userId, title] = key.split('\n');
			return { userId, title };
		});
		return { events: this.events, customers: copies.length, copies };
	}
}

const stores = new WeakMap<EmulatorState, ActiveCopies>();

/** The count of one emulator (keyed by its state, as listLagOf is). */
export function activeCopiesOf(state: EmulatorState): ActiveCopies {
	let store = stores.get(state);
	if (!store) stores.set(state, (store = new ActiveCopies()));
	return store;
}
