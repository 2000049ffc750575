/**
 * Which form of a token the service accepts, found by the node: on Auto a token that is not a JWT
 * goes first as Albato's pages document it (Basic username), and on a 401 once in the other form.
 * A 401 applied nothing, so the second try is safe for every method. The form that worked is kept
 * per credential and kind of token, in memory, for this n8n process: a fleet pays for the
 * discovery once per worker, not once per call. Keys hold a fingerprint of the credential, never a
 * token.
 */
import { FORM_NAMES, type TokenForm } from '../readers/token';

/** What a call may send: a token in one form, or (update-user-data) the end user's own token. */
export type Way = TokenForm | 'endUserToken';

const known = new Map<string, Way>();

/**
 * Keys being found out right now, with what resolves when they are: concurrent calls of a form not
 * yet known wait for the first, so a fleet's thousand items cost one extra request, not a thousand.
 */
const finding = new Map<string, Promise<void>>();

/** Forms kept per process: one per credential and kind of token, so a few are plenty. */
const MAX_KNOWN = 10_000;

function learn(key: string, way: Way): void {
	if (known.get(key) === way) return;
	if (known.size >= MAX_KNOWN) known.delete(known.keys().next().value as string);
	known.set(key, way);
}

/** The way a credential's token goes now: the one learnt, or the only one; undefined: not yet known. */
export function wayIn(key: string, ways: readonly Way[]): Way | undefined {
	const kept = known.get(key);
	if (kept !== undefined && ways.includes(kept)) return kept;
	return ways.length === 1 ? ways[0] : undefined;
}

/** A way as messages and outputs name it. */
export const wayName = (way: Way | undefined): string =>
	way === undefined ? 'not found out yet' : WAY_NAMES[way];

/** What a trial says in messages: the option that pins the form, and where it is. */
export interface Pin {
	/** 'the Albato Partner API credential "Prod"' */
	where: string;
	/** 'Send Master Token As' */
	option: string;
}

/** One call's way of sending one kind of token: the ways left to try, and those refused. */
export class Trial {
	private index = 0;

	private readonly ways: readonly Way[];

	/** Whether the way in use was learnt from an earlier call (a 401 then means a stale token). */
	private readonly learnt: boolean;

	/** Set while this call is the one finding the form out: lets the calls waiting on it go. */
	private release: (() => void) | undefined;

	constructor(
		/** The credential's key (a fingerprint) and the kind of token. */
		private readonly key: string,
		ways: readonly Way[],
		readonly pin: Pin,
	) {
		const kept = known.get(key);
		this.learnt = kept !== undefined && ways.includes(kept);
		this.ways = this.learnt ? [kept as Way] : ways;
	}

	/**
	 * A call's trial, once no other call is finding the same form out: it starts with what that one
	 * learnt, or (it learnt nothing) finds out itself while the next ones wait.
	 */
	static async start(key: string, ways: readonly Way[], pin: Pin): Promise<Trial> {
		if (ways.length < 2) return new Trial(key, ways, pin);
		for (;;) {
			const pending = finding.get(key);
			if (!pending) break;
			await pending;
		}
		const trial = new Trial(key, ways, pin);
		if (!trial.learnt) {
			finding.set(key, new Promise<void>((resolve) => (trial.release = resolve)));
		}
		return trial;
	}

	/** The call is over (answered, failed or stopped): the calls waiting on it go. */
	done(): void {
		if (!this.release) return;
		finding.delete(this.key);
		this.release();
		this.release = undefined;
	}

	get way(): Way {
		return this.ways[this.index];
	}

	/** After a 401: the next way, if one is left (each is tried once per call). */
	next(): boolean {
		if (this.index + 1 >= this.ways.length) return false;
		this.index++;
		return true;
	}

	/** The service took this way: later calls start with it (the call's done() follows). */
	accepted(): void {
		if (this.ways.length > 1 || this.learnt) learn(this.key, this.way);
	}

	/** Every way was refused: the next call finds out again (the call's done() follows). */
	refused(): void {
		known.delete(this.key);
	}

	/** The ways this call tried, in order. */
	get tried(): readonly Way[] {
		return this.ways.slice(0, this.index + 1);
	}

	/** The sentence a final 401 adds: each way tried, and the option that pins another. */
	told(): string {
		const names = this.tried.map((way) => WAY_NAMES[way]).join(', then as ');
		return `The service refused the token sent as ${names} (401). Check the token, or set "${this.pin.option}" in ${this.pin.where} to the form your account takes.`;
	}
}

const WAY_NAMES: Record<Way, string> = {
	...FORM_NAMES,
	endUserToken: "the end user's token (Options → Authorize As: End User)",
};

/** Only for tests: a new n8n process, and what it has learnt. */
export const forTests = {
	clear: () => {
		known.clear();
		finding.clear();
	},
	known: (fragment: string) =>
		[...known].filter(([key]) => key.includes(fragment)).map(([, way]) => way),
};
