/**
 * Per-customer faults: a fault rule (faults.ts) with `customers` applies only to the calls of a
 * share of the end users, chosen by a deterministic hash of their End User ID, so that about 1% of
 * a fleet fails at one step whatever worker, order or batch its calls come in, and the same
 * customers on every run. Which customer a call is for: the installation it names (PAUSE, PLAY,
 * GET of `/solution/installation/{id}`), the installation of the step it writes
 * (`/bundle/data/{stepId}`), else the caller's token (an install). `solutionId` narrows it to the
 * installations of one solution (an upgrade's old one, or its new one). README: "Faults per
 * customer".
 */
import { authenticate } from './auth';
import type { EmulatorState, InstallationRecord } from './types';

/** Which customers a rule applies to. */
export interface CustomerChoice {
	/** The share of end users chosen, from 0 to 1 (0.01: one in a hundred). */
	share: number;
	/** Mixed into the hash: another seed, another set of customers (one per step). Default "". */
	seed?: string;
	/** Only calls about an installation of this solution (an install: of this solution). */
	solutionId?: number;
}

/** The customer (End User ID) a call is for, and the solution of the installation it is about. */
export interface CallTarget {
	endUserId: string;
	solutionId?: number;
}

export type CustomerResolver = (path: string, authorization?: string) => CallTarget | undefined;

/**
 * 32-bit FNV-1a of a text, its bits then mixed (MurmurHash3's finalizer, so that IDs differing in
 * their last character land far apart): the same number on every run and every machine.
 */
function hashOf(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
	hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
	return (hash ^ (hash >>> 16)) >>> 0;
}

/** Whether the rule's hash picks this End User ID: `hash("<seed>:<id>") / 2^32 < share`. */
export function isChosen(choice: CustomerChoice, endUserId: string): boolean {
	return hashOf(`${choice.seed ?? ''}:${endUserId}`) / 2 ** 32 < choice.share;
}

/** Whether a call for `target` falls under the rule's customers. */
export function customerMatches(choice: CustomerChoice, target: CallTarget | undefined): boolean {
	if (!target) return false;
	if (choice.solutionId !== undefined && target.solutionId !== choice.solutionId) return false;
	return isChosen(choice, target.endUserId);
}

/** A rule's `customers` from JSON, checked (the control surface answers 400 on a bad one). */
export function customerChoiceFromJson(raw: unknown): CustomerChoice {
	const choice = raw as Partial<CustomerChoice> | null;
	if (!choice || typeof choice !== 'object' || Array.isArray(choice))
		throw new Error('fault rule "customers" must be an object: {"share", "seed"?, "solutionId"?}');
	if (typeof choice.share !== 'number' || !(choice.share >= 0 && choice.share <= 1))
		throw new Error('fault rule "customers.share" must be a number from 0 to 1');
	if (choice.seed !== undefined && typeof choice.seed !== 'string')
		throw new Error('fault rule "customers.seed" must be text');
	if (choice.solutionId !== undefined && !Number.isInteger(choice.solutionId))
		throw new Error('fault rule "customers.solutionId" must be a whole number');
	return { share: choice.share, seed: choice.seed, solutionId: choice.solutionId };
}

/** The End User ID in a token subject: partner users are `<partner>:<id>`. */
const endUserIdOf = (sub: string) => sub.slice(sub.indexOf(':') + 1);

const targetOf = (installation: InstallationRecord | undefined): CallTarget | undefined =>
	installation && {
		endUserId: endUserIdOf(installation.userId),
		solutionId: installation.solutionId,
	};

/** Finds whom a call is for in one emulator's state (read at each call, never copied). */
export function customerResolver(core: {
	readonly state: EmulatorState;
	readonly secret: string;
}): CustomerResolver {
	return (path, authorization) => {
		const { state } = core;
		const installation = /^\/solution\/installation\/(\d+)$/.exec(path);
		if (installation) return targetOf(state.installations.get(Number(installation[1])));
		const step = /^\/bundle\/data\/(\d+)$/.exec(path);
		if (step) {
			const bundle = state.bundles.get(state.bundleData.get(Number(step[1]))?.bundleId ?? -1);
			return targetOf(state.installations.get(bundle?.installationId ?? -1));
		}
		let sub: string;
		try {
			sub = authenticate(authorization, core.secret, state.permanentTokens);
		} catch {
			return undefined; // not an end user's call: the service's own 401 follows
		}
		const install = /^\/solution\/(\d+)\/installation$/.exec(path);
		return { endUserId: endUserIdOf(sub), solutionId: install ? Number(install[1]) : undefined };
	};
}
