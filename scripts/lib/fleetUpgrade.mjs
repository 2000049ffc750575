// `npm run bench:fleet`'s upgrade job (`--jobs fleetUpgrade`): Installation → Upgrade of every
// seeded customer from solution 101 to its next version, 105 (emulator/upgradeFixtures.ts), on the
// fleet the fleet change left, one batch execution per `--batch` customers as the other jobs. While
// it runs, the emulator's count of customers with two active copies (emulator/activeCopies.ts) is
// read at every poll, and every customer's installations every few seconds.

import { convergence } from './fleetOutcome.mjs';
import { fleetChange } from './fleetJobs.mjs';
import { IN_FLIGHT, NODE_TYPE, ONLY, PARTNER_CREDENTIAL } from './fleetOptions.mjs';
import { authPhrase } from './fleetReport.mjs';

/** The example's Lost Answer Check (examples/fleet-upgrade.workflow.json), in seconds. */
export const UPGRADE_LOST_ANSWER_CHECK = 1;
/** How often every customer's installations are read during the job (a few hundred kB each time). */
const SNAPSHOT_EVERY_MS = 5000;

/** The batch workflow's Upgrade node (node version 4), set as the fleet-upgrade example sets it. */
export function upgradeNode(guard) {
	return {
		parameters: {
			authentication: 'partnerApi',
			endUserId: '={{ $json.customerId }}',
			resource: 'installation',
			operation: 'upgrade',
			direction: 'upgrade',
			fromSolutionId: { __rl: true, mode: 'id', value: '101' },
			solutionId: { __rl: true, mode: 'id', value: '105' },
			title: '=Leads of {{ $json.customerId }}',
			connectionSettingsMode: 'json',
			credentialData:
				'{"crm": "hubspot", "hubspotPipeline": "sales", "hubspotStage": "new", "mailer": "mailchimp"}',
			templateIds: [1051, 1052],
			fieldRenames: '{"subject": "mailSubject"}',
			options: { lostAnswerCheck: UPGRADE_LOST_ANSWER_CHECK },
			requestOptions: {
				...(guard
					? {
							canaryItems: 10,
							stopAfterFailures: `={{ $('One batch').first().json.body.stopAfterFailures ?? '1%' }}`,
						}
					: {}),
				...(IN_FLIGHT ? { concurrency: IN_FLIGHT } : {}),
			},
		},
		name: 'Upgrade',
		type: NODE_TYPE,
		typeVersion: 4,
		position: [440, 200],
		credentials: {
			albatoPartnerApi: { id: PARTNER_CREDENTIAL.id, name: PARTNER_CREDENTIAL.name },
		},
		onError: 'continueErrorOutput',
	};
}

/** The fleet change, then (`--jobs …,fleetUpgrade`) the upgrade, each printed and kept in `jobs`. */
export async function changeAndUpgrade(bench, seeded, jobs) {
	const n = seeded.length;
	if (ONLY.includes('fleetChange')) {
		const change = await fleetChange(bench, seeded, 'v2');
		jobs.fleetChange[n] = change.figures;
		console.log(
			`  fleet change: ${change.figures.seconds} s, ${change.figures.failedItems} failed, ${change.figures.notConverged} not converged, ${change.figures.duplicateInstallations} duplicates, ${change.figures.calls.total} calls; ${authPhrase(change.figures)}`,
		);
	}
	if (!ONLY.includes('fleetUpgrade')) return;
	const upgrade = await fleetUpgrade(bench, seeded);
	jobs.fleetUpgrade[n] = upgrade.figures;
	const f = upgrade.figures;
	console.log(
		`  upgrade: ${f.seconds} s, ${f.failedItems} failed, ${f.notConverged} not on the target with their values, ${f.duplicateInstallations} duplicates, both active: ${f.bothActive.events} (${f.bothActive.samples} counts read, ${f.bothActive.snapshots} snapshots, at most ${f.bothActive.maxAtOnce} at once), ${f.calls.total} calls; ${authPhrase(f)}`,
	);
}

/** A customer id no seed has: fleet/status answers its bothActive count and no customer. */
const NO_CUSTOMER = '\u0001none';

async function bothActiveEvents(bench) {
	const { bothActive } = await bench.emulator.control('POST', '/fleet/status', {
		idPrefix: NO_CUSTOMER,
	});
	return bothActive.events;
}

/** Per customer of the seed: installations titled `Leads of <id>`, by `field`'s value. */
async function installationsOf(bench, prefix, field) {
	const { customers } = await bench.emulator.control('POST', '/fleet/status', {
		idPrefix: prefix,
		field,
	});
	return customers;
}

/** Customers with two or more active copies of `Leads of <id>` in one read of the fleet. */
function twoActiveNow(customers) {
	let count = 0;
	for (const [id, installations] of Object.entries(customers)) {
		const active = installations.filter(
			([, title, status]) => title === `Leads of ${id}` && Number(status) === 1,
		);
		if (active.length > 1) count++;
	}
	return count;
}

/**
 * Every seeded customer upgraded; then each must have exactly one active copy, the new one, whose
 * `mailSubject` is the `subject` the old one held before the job, the old one paused, no third copy.
 */
export async function fleetUpgrade(bench, seeded) {
	const prefix = seeded[0].id.slice(0, -5);
	const ids = seeded.map(({ id }) => id);
	const before = await installationsOf(bench, prefix, 'subject');
	const expected = new Map(
		ids.map((id) => [id, (before[id] ?? []).find(([, , status]) => Number(status) === 1)?.[3]]),
	);
	const base = await bothActiveEvents(bench);
	const watch = { samples: 0, snapshots: 0, maxEvents: 0, maxAtOnce: 0, lastSnapshot: 0 };
	const sample = async () => {
		watch.maxEvents = Math.max(watch.maxEvents, (await bothActiveEvents(bench)) - base);
		watch.samples++;
		if (Date.now() - watch.lastSnapshot < SNAPSHOT_EVERY_MS) return;
		watch.lastSnapshot = Date.now();
		watch.maxAtOnce = Math.max(watch.maxAtOnce, twoActiveNow(await installationsOf(bench, prefix)));
		watch.snapshots++;
	};
	const result = await bench.runJob(
		'fleetUpgrade',
		ids.map((customerId) => ({ customerId })),
		{ onTick: sample },
	);
	await sample();
	const after = await installationsOf(bench, prefix, 'mailSubject');
	const onTarget = targetCheck(after, ids, expected);
	Object.assign(result.figures, onTarget, {
		bothActive: {
			events: watch.maxEvents,
			samples: watch.samples,
			snapshots: watch.snapshots,
			maxAtOnce: Math.max(watch.maxAtOnce, twoActiveNow(after)),
		},
		lostAnswerCheckSeconds: UPGRADE_LOST_ANSWER_CHECK,
	});
	return result;
}

/** convergence() per expected value: one active copy (the new one, holding it), one paused (the old). */
function targetCheck(after, ids, expected) {
	const out = { notConverged: 0, duplicateInstallations: 0, notConvergedIds: [], oldNotPaused: 0 };
	const byValue = new Map();
	for (const id of ids) {
		const value = expected.get(id);
		if (!byValue.has(value)) byValue.set(value, []);
		byValue.get(value).push(id);
	}
	for (const [value, group] of byValue) {
		const check = convergence(after, group, value);
		out.notConverged += check.notConverged;
		out.notConvergedIds.push(...check.notConvergedIds.slice(0, 10 - out.notConvergedIds.length));
	}
	for (const id of ids) {
		const own = (after[id] ?? []).filter(([, title]) => title === `Leads of ${id}`);
		// Two copies are expected (the old one, kept paused, and the new one): a third is a duplicate.
		out.duplicateInstallations += Math.max(0, own.length - 2);
		if (own.length < 2 || own.some(([, , status, mail]) => mail === null && Number(status) !== 0))
			out.oldNotPaused++;
	}
	return out;
}
