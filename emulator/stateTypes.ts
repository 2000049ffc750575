/**
 * The state's shape: the spec's records, and the state itself (records and the parts kept beyond
 * them; state.ts creates and resets it). Re-exported by types.ts.
 */
import type { ActiveCopies } from './activeCopies';
import type { ConnectionsStore } from './connections';
import type { BillingStore, LifecycleStore } from './endUserAccounts';
import type { ListLagStore } from './listLag';
import type { RunHistory } from './runHistory';

/** A field of a bundle step; `type` is internal (used to validate updates), never rendered. */
export interface FieldRecord {
	name: string;
	label: string;
	type: 'string' | 'number' | 'boolean' | 'listRef' | 'list' | 'object';
	/** Whether the field may also hold null (no value). */
	nullable?: boolean;
	value: string | number | boolean | null | unknown[] | Record<string, unknown>;
}

export interface InstallationRecord {
	id: number;
	userId: string;
	solutionId: number;
	solutionVersion: number;
	title: string;
	status: 0 | 1;
	settings: Record<string, unknown>;
	credentialData: Record<string, string>;
	bundleIds: number[];
	dateCreated: string;
	dateUpdated: string;
}

export interface BundleRecord {
	id: number;
	installationId: number;
	templateId: number;
	title: string;
	stepIds: number[];
}

/** One bundle step data record (GET /bundle/data). */
export interface BundleStepRecord {
	id: number;
	bundleId: number;
	title: string;
	fields: FieldRecord[];
}

export interface CredentialRecord {
	id: number;
	userId: string;
	partnerId: number;
	title: string;
	/** Stored in full; rendered with secrets masked. */
	values: Record<string, string>;
	dateCreated: string;
}

/** An end user created at run time through /wl/{partner}/add-user. */
export interface EndUserRecord {
	/** Albato's numeric id. */
	albatoId: number;
	/** The partner's own id of the user (the add-user body's `id`). */
	id: string;
	partner: string;
	email: string;
	/** The token subject, i.e. the installations' `userId`: `<partner>:<id>`. */
	sub: string;
	/** Opaque (not a JWT), stable per user. */
	permanentToken: string;
	timezoneOffset?: number;
	language?: string;
	dateCreated: string;
}

export interface EmulatorState {
	installations: Map<number, InstallationRecord>;
	bundles: Map<number, BundleRecord>;
	/** Bundle step data records, by bundle step id. */
	bundleData: Map<number, BundleStepRecord>;
	credentials: Map<number, CredentialRecord>;
	/** End users created at run time, by `<partner>\n<id>`. */
	endUsers: Map<string, EndUserRecord>;
	/** Permanent token → token subject. */
	permanentTokens: Map<string, string>;
	nextIds: {
		installation: number;
		bundle: number;
		step: number;
		credential: number;
		endUser: number;
	};
	// The parts beyond the spec's records, one per concern; state.ts creates and resets them all.
	listLag: ListLagStore;
	connections: ConnectionsStore;
	runHistory: RunHistory;
	lifecycle: LifecycleStore;
	billing: BillingStore;
	activeCopies: ActiveCopies;
}
