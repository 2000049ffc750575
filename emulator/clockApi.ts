/** The emulator's clock as code sees it (`emu.clock`): link expiry, dateCreated, run streams. */
export interface EmulatorClock {
	now(): number;
	advance(ms: number): void;
	set(at: string | number): void;
	/** Stops the clock where it is (moves still move it); false lets it run on. */
	freeze(on: boolean): void;
}
