// The fleet change's world (fleet.mjs): its two workflows, the 20 customers and how each stands
// before the change, and how the checks read the emulator's installations and the snapshot table.
// On an n8n whose Data Table node has rows only, the table is made by hand as the example's sticky
// note says.

import { existsSync } from 'node:fs';
import path from 'node:path';

import { customerSession, installFor } from './partner.mjs';

export const FLEET = {
	id: 'AlbatoFleetChng1',
	file: 'examples/fleet-change.workflow.json',
	trigger: 'Run now',
	webhookPath: 'albato-e2e-fleet-change',
	webhookId: '3c9e2b0a-5f4d-4e7a-9a61-0d2f6b8c1e45',
};
export const RESTORE = {
	id: 'AlbatoFleetRstr1',
	file: 'examples/fleet-restore.workflow.json',
	trigger: 'Run now',
	webhookPath: 'albato-e2e-fleet-restore',
	webhookId: '8a1f4c6e-2b7d-4f3a-b5e9-6c0d1a2e3f74',
};
export const TABLE = 'Fleet change snapshots';
export const TITLE = 'CRM Leads to Mailer';
export const NEW_SUBJECT = 'Welcome to the new plan';
export const CUSTOMERS = Array.from(
	{ length: 20 },
	(_x, i) => `fleet-${String(i + 1).padStart(2, '0')}`,
);
export const MISSING = 'fleet-08';
export const FRESH = 'fleet-03';
/** A report's snapshots, as JSON: this run, the change's first run, the rows kept, who has none. */
export const snapshotsJson = ([executionId, firstExecutionId, kept, noSnapshot]) =>
	JSON.stringify({ executionId, firstExecutionId, kept, noSnapshot });
/** Customers whose installation differs from a fresh one before the change (the two restored). */
export const OWN = {
	'fleet-02': { paused: true, mail: { subject: 'Hi from fleet-02', cf__4c2d9e8f0a1b4c3d: 30 } },
	'fleet-20': { paused: false, mail: { subject: 'Hello from fleet-20' } },
};
export const RESTORED = Object.keys(OWN);
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;
export const isWrite = (r) =>
	r.method !== 'GET' && !(r.method === 'POST' && READING_POSTS.test(r.path));

/** The Data Tables named TABLE, and every row of the first one (n8n's REST API, as the owner). */
export async function snapshotTable(n8n) {
	const filter = encodeURIComponent(JSON.stringify({ name: TABLE }));
	const listed = await n8n.rest('GET', `/data-tables-global?filter=${filter}&take=50`);
	const tables = (listed.data ?? listed).filter((table) => table.name === TABLE);
	if (tables.length === 0) return { tables, rows: [] };
	const { id, projectId } = tables[0];
	const rows = [];
	for (let skip = 0; ; skip += 250) {
		const page = await n8n.rest(
			'GET',
			`/projects/${projectId}/data-tables/${id}/rows?take=250&skip=${skip}`,
		);
		rows.push(...page.data);
		if (page.data.length < 250) break;
	}
	return { tables, rows };
}

/** The same fields in one order, to compare as JSON. */
const inOrder = (fields) =>
	Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Each customer's installation titled TITLE in the emulator: status and every field value. */
export function installationsByCustomer(state, userOf) {
	const byCustomer = {};
	for (const id of CUSTOMERS) {
		const mine = state.installations.filter((i) => i.userId === userOf(id) && i.title === TITLE);
		if (mine.length > 1) throw new Error(`${id} has ${mine.length} installations "${TITLE}"`);
		if (mine.length === 0) continue;
		const [installation] = mine;
		const fields = {};
		for (const record of state.bundleData.filter((r) =>
			installation.bundleIds.includes(r.bundleId),
		))
			for (const field of record.fields) fields[`${record.title} → ${field.name}`] = field.value;
		byCustomer[id] = {
			id: installation.id,
			status: installation.status === 1 ? 'active' : 'paused',
			fields: inOrder(fields),
		};
	}
	return byCustomer;
}

/** A kept snapshot read as the emulator's view: status and "step → code" values. */
export function snapshotView(row) {
	const snapshot = JSON.parse(row.snapshot);
	const fields = {};
	for (const field of snapshot.fieldValues) fields[`${field.step} → ${field.code}`] = field.value;
	return { id: row.installationId, status: snapshot.status, fields: inOrder(fields) };
}

export const sorted = (list) => [...list].sort();

/** A customer before the change: the installation, paused or started, with its own values. */
export async function prepare(emulator, partner, id) {
	if (id === MISSING) return;
	const asUser = await customerSession(emulator, partner, id);
	if (id === FRESH) return;
	const own = OWN[id];
	const installationId = await installFor(asUser, TITLE, false);
	if (own) {
		const state = await emulator.state();
		const { bundleIds } = state.installations.find((i) => i.id === installationId);
		const mail = state.bundleData.find(
			(r) => bundleIds.includes(r.bundleId) && r.title === 'Send welcome email',
		);
		await asUser('PUT', `/bundle/data/${mail.id}`, { data: own.mail });
	}
	if (!own?.paused) await asUser('PLAY', `/solution/installation/${installationId}`);
}

/** Whether this n8n's Data Table node can make a table (its `table` resource, 1.1; not in 2.0.3). */
export const makesTables = (n8n) =>
	existsSync(
		path.join(n8n.install.appDir, 'node_modules/n8n-nodes-base/dist/nodes/DataTable/actions/table'),
	);

/**
 * What the example's sticky note says to change on an n8n whose Data Table node has rows only
 * (version 1, which also finds a table by its ID only): make the table by hand (here through the
 * REST API, as the Data Tables page does), delete the node "Snapshot table", and pick the table
 * in the other Data Table nodes (their version 1).
 */
export async function tableMadeByHand(n8n, workflow) {
	const tableNode = workflow.nodes.find((node) => node.name === 'Snapshot table');
	const filter = encodeURIComponent(JSON.stringify({ name: TABLE }));
	const listed = await n8n.rest('GET', `/data-tables-global?filter=${filter}&take=50`);
	const existing = (listed.data ?? listed).find((table) => table.name === TABLE);
	if (existing) return existing.id;
	const { id: projectId } = await n8n.rest('GET', '/projects/personal');
	const made = await n8n.rest('POST', `/projects/${projectId}/data-tables`, {
		name: TABLE,
		columns: tableNode.parameters.columns.column,
	});
	return made.id;
}

export function pickedTable(workflow, tableId) {
	const nodes = workflow.nodes
		.filter((node) => node.name !== 'Snapshot table')
		.map((node) =>
			node.type.endsWith('.dataTable')
				? {
						...node,
						typeVersion: 1,
						parameters: {
							...node.parameters,
							dataTableId: { __rl: true, mode: 'id', value: String(tableId) },
						},
					}
				: node,
		);
	const connections = { ...workflow.connections };
	if (connections['Snapshot table']) {
		connections[FLEET.trigger] = { main: [connections['Snapshot table'].main[0]] };
		delete connections['Snapshot table'];
	}
	return { ...workflow, nodes, connections };
}
