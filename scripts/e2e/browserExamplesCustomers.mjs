// The customers of the examples in the editor (browserExamples.mjs), unique per run, and the
// emulator's side: c1 and c2 with the fleet's installation and their own values, c3 an end user
// with none; each customer's installations as the checks read them.

import { customerSession, installFor } from './partner.mjs';

const TAG = Date.now().toString(36); // unique customers per run: the standalone run can be repeated
export const customer = (name) => `ex-${TAG}-${name}`;
/** c1: own subject, active; c2: own subject and delay, paused; c3: an end user, no installation. */
export const C1 = customer('c1');
export const C2 = customer('c2');
export const C3 = customer('c3');
export const OWN = {
	[C1]: { subject: `Hi from ${C1}` },
	[C2]: { subject: `Hi from ${C2}`, cf__4c2d9e8f0a1b4c3d: 30 },
};
export const FLEET_TITLE = 'CRM Leads to Mailer';
export const NEW_SUBJECT = 'Welcome to the new plan';
export const TABLE = 'Fleet change snapshots';
export const TEMPLATE = 'New lead → welcome email';
export const MAIL_STEP = 'Send welcome email';
export const DELAY = 'cf__4c2d9e8f0a1b4c3d';
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;
export const isWrite = (r) =>
	r.method !== 'GET' && !(r.method === 'POST' && READING_POSTS.test(r.path));

/** Each customer's installations titled `title`: status and "step → code" values. */
export function installationsOf(state, userId, title) {
	return state.installations
		.filter((i) => i.userId === userId && i.title === title)
		.map((installation) => {
			const fields = {};
			for (const record of state.bundleData.filter((r) =>
				installation.bundleIds.includes(r.bundleId),
			))
				for (const field of record.fields) fields[`${record.title} → ${field.name}`] = field.value;
			return {
				id: installation.id,
				bundleIds: installation.bundleIds,
				status: installation.status,
				fields,
			};
		});
}

/** c1 and c2 with the installation and their own values (c2 paused), c3 an end user with none. */
export async function prepareFleet(emulator, partner) {
	for (const id of [C1, C2, C3]) {
		const asUser = await customerSession(emulator, partner, id);
		if (id === C3) continue;
		const installationId = await installFor(asUser, FLEET_TITLE, false);
		const state = await emulator.state();
		const { bundleIds } = state.installations.find((i) => i.id === installationId);
		const mail = state.bundleData.find(
			(r) => bundleIds.includes(r.bundleId) && r.title === MAIL_STEP,
		);
		await asUser('PUT', `/bundle/data/${mail.id}`, { data: OWN[id] });
		if (id === C1) await asUser('PLAY', `/solution/installation/${installationId}`);
	}
}
