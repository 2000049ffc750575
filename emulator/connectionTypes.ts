/**
 * Records of connection by link, update-user-data and the partner's own connection. Kept in a file
 * with no imports, so that types.ts, connections.ts and the handlers can all use them without an
 * import circle.
 */
/** A sharing entity (connection by link). */
export interface LinkRecord {
	id: number;
	/** Token subject of the end user who created it. */
	userId: string;
	partnerId: number;
	title: string;
	/** The one-time link token (secret everywhere but in the link itself). */
	token: string;
	/** Emulator-clock ms of creation or the last renewal; the link expires LINK_LIFETIME_MS later. */
	createdAt: number;
	/** Set when the link is completed into a credential. */
	credentialId: number | null;
}

/** The partner's own connection (upsert-own-credential) of one end user. */
export interface OwnCredentialRecord {
	id: number;
	userId: string;
	title: string;
	/** Stored in full; answers mask the secret fields. */
	values: Record<string, string | number>;
	webhookUrl: string;
}

/** update-user-data: what successive calls answer for one credential (see README). */
export interface RefreshRule {
	/** updateStatus values answered by successive calls. After the last: 3 ends the cycle (the next call starts again), anything else repeats. */
	sequence: number[];
}

export interface CompleteLinkOptions {
	/** The partner's field values the customer "entered"; generated when absent. */
	values?: Record<string, string>;
	/** The connection name; default the link's title. */
	title?: string;
}
