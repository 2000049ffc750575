/**
 * The bulk update: 200 changes over 20 active installations (Bundle Data → Update with Pause and
 * Resume) through a round-trip proxy: the calls made against the minimum, the seconds, and whether
 * every installation is active again with the last change of each step applied.
 */
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { control, dataOf, type Service } from './http';
import { runNode } from './node';
import { seconds } from './options';

/** Where one change lands. */
interface Step {
	installation: number;
	bundle: number;
	step: number;
}

export type Bulk = Awaited<ReturnType<typeof bulkUpdate>>;

export async function bulkUpdate(
	service: Service,
	rttMs: number,
	changes: number,
	installations: number,
) {
	const targets = await startInstallations(service, installations);
	// The changes round robin over the installations (so the groups are interleaved in the input).
	const items = Array.from({ length: changes }, (_, i) => ({
		...targets[i % installations],
		subject: `Bench subject ${i}`,
	}));
	await control(service, 'DELETE', '/requests');
	const started = process.hrtime.bigint();
	await runNode(
		service.proxies[rttMs],
		service.token,
		{
			resource: 'bundleData',
			operation: 'update',
			installationId: { __rl: true, mode: 'id', value: '={{ $json.installation }}' },
			bundleId: '={{ $json.bundle }}',
			stepId: '={{ $json.step }}',
			fieldValuesMode: 'json',
			fieldValues: '={{ JSON.stringify({ subject: $json.subject }) }}',
			ifActive: 'pauseAndResume',
		},
		items,
	);
	const taken = seconds(started);
	const log = (await control(service, 'GET', '/requests')).body as Array<{ method: string }>;
	const calls: Record<string, number> = {};
	for (const entry of log) calls[entry.method] = (calls[entry.method] ?? 0) + 1;
	const { allActive, allApplied } = await checkState(service, targets, items);
	return {
		rttMs,
		installations,
		changes,
		calls: log.length,
		// One PUT per change, and one read, one PAUSE and one PLAY per installation.
		minimumCalls: changes + 3 * installations,
		seconds: taken,
		callsByMethod: calls,
		allActive,
		allApplied,
	};
}

/** Installations of solution 101 (template 1011: a bundle whose second step has `subject`), started. */
async function startInstallations(service: Service, installations: number): Promise<Step[]> {
	const targets: Step[] = [];
	for (let i = 0; i < installations; i++) {
		const created = await dataOf<{ id: number }>(service, 'POST', '/solution/101/installation', {
			credentialData: VALID_CREDENTIAL_DATA[101],
			templateIds: [1011],
			title: `Bench ${i + 1}`,
		});
		await dataOf(service, 'PLAY', `/solution/installation/${created.id}`);
		const detail = await dataOf<{
			bundles: Record<string, { id: number; steps: Array<{ id: number }> }>;
		}>(service, 'GET', `/solution/installation/${created.id}?expand=app.templates,+bundles.steps`);
		const bundle = Object.values(detail.bundles)[0];
		targets.push({ installation: created.id, bundle: bundle.id, step: bundle.steps[1].id });
	}
	return targets;
}

/** Whether every installation is active again, and the last change of each step is applied. */
async function checkState(
	service: Service,
	targets: Step[],
	items: Array<{ step: number; subject: string }>,
) {
	const state = (await control(service, 'GET', '/state')).body as {
		installations: Array<{ id: number; status: number }>;
		bundleData: Array<{ id: number; fields: Array<{ name: string; value: unknown }> }>;
	};
	const ours = new Set(targets.map((t) => t.installation));
	const allActive = state.installations.filter((i) => ours.has(i.id)).every((i) => i.status === 1);
	// The last change of each step wins.
	const expected = new Map<number, string>();
	for (const item of items) expected.set(item.step, item.subject);
	const allApplied = [...expected].every(([step, subject]) =>
		state.bundleData.some(
			(r) => r.id === step && r.fields.some((f) => f.name === 'subject' && f.value === subject),
		),
	);
	return { allActive, allApplied };
}
