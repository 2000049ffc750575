/**
 * Two active copies of one customer's installation: the harm an upgrade must never cause (every
 * email sent twice). Each time an installation becomes active (PLAY, or an install when installs
 * start active) while its owner already has another active installation with the same title, of
 * any solution, the emulator counts it and names the customer and title. `npm run bench:fleet`
 * reads it throughout a job (`POST /__emulator/fleet/status` → `bothActive`), tests through
 * `emu.state.activeCopies`. Cleared with the fixtures (reset).
 */
/** What the count reads of an installation. */
interface Copy {
	id: number;
	userId: string;
	title: string;
	status: number;
}

/** A part of the state (state.ts). */
export class ActiveCopies {
	events = 0;
	private readonly copies = new Set<string>();

	clear(): void {
		this.events = 0;
		this.copies.clear();
	}

	/** Called once `installation` is active: counts it when another of `owners` (its owner's installations) is active too. */
	started(owners: readonly Copy[], installation: Copy): void {
		const twin = owners.some(
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
