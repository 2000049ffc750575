/**
 * Overlap soak: in every round 2–4 executions run at once through n8n-core against the emulator.
 * Each installs a solution, then updates fields of the same four installations (two made by the
 * node first) with "Pause, Update, Then Start Again"; in some rounds another execution starts or
 * pauses one of them meanwhile. The emulator injects seeded random faults (lost answers before and
 * after the service applied the call, unreadable and `success: false` answers to PAUSE and PLAY,
 * 429/5xx, delays) and seeded response variants (status as a string, a detail without status). The
 * plan comes from the seed; the interleaving is whatever the machine makes of it, which is the
 * point.
 *
 * After each round: no installation twice (one per successful install, none for a failed one),
 * every update applied (each execution owns its fields in a round, so nothing may overwrite them),
 * and every status as it was before the round, or as a Start/Pause sent during the round asked.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { FaultRule } from '../../emulator/types';
import {
	byId,
	guardedUpdateFromItems,
	installParams,
	prng,
	runNode,
	useEmulator,
	type NodeRun,
} from '../support/setup';
import { useShortWaits } from '../support/waits';

const ctx = useEmulator();
/**
 * The emulator changes by count (no list lag); its 40 ms delays hold requests open so executions
 * overlap, and race no Timeout (30 s): the node's waits can be short.
 */
useShortWaits();

const SEED = 20261122;
const ROUNDS = 20;
const RETRIES = { maxRetries: 8, retryBudget: 20 };

interface Field {
	installation: number;
	bundle: number;
	step: number;
	field: string;
	kind: string;
}

/** Writable fields of the fixtures' installations: 5001 (active at start) and 5002 (paused). */
const FIXTURE_FIELDS: Field[] = [
	{ installation: 5001, bundle: 7001, step: 9001, field: 'cf__8ad75c3e1f2b4a90', kind: 'string' },
	{ installation: 5001, bundle: 7001, step: 9001, field: 'cf__1b9e04d7aa6c4f12', kind: 'number' },
	{ installation: 5001, bundle: 7001, step: 9002, field: 'subject', kind: 'string' },
	{ installation: 5001, bundle: 7001, step: 9002, field: 'cf__4c2d9e8f0a1b4c3d', kind: 'number' },
	{ installation: 5001, bundle: 7002, step: 9003, field: 'minAmount', kind: 'number' },
	{ installation: 5001, bundle: 7002, step: 9004, field: 'tag', kind: 'string' },
	{ installation: 5002, bundle: 7003, step: 9005, field: 'cf__8ad75c3e1f2b4a90', kind: 'string' },
	{ installation: 5002, bundle: 7003, step: 9005, field: 'cf__1b9e04d7aa6c4f12', kind: 'number' },
	{ installation: 5002, bundle: 7003, step: 9006, field: 'subject', kind: 'string' },
	{ installation: 5002, bundle: 7003, step: 9006, field: 'cf__4c2d9e8f0a1b4c3d', kind: 'number' },
];

interface Change {
	installation: number;
	bundle: number;
	step: number;
	field: string;
	value: string | number;
}

interface Execution {
	title: string;
	changes: Change[];
	concurrency: number;
	continueOnFail: boolean;
}

interface Round {
	executions: Execution[];
	/** A Start or Pause sent by another execution during the round. */
	toggle?: { installation: number; start: boolean };
	/** A Start or Pause sent alone after the round (so rounds begin in different states). */
	after?: { installation: number; start: boolean };
	faults: FaultRule[];
	variants: { statusShape: 'number' | 'string'; detailWithoutStatus: boolean };
}

/**
 * The whole plan, from the seed only (and the fields of the installations shared by all
 * executions).
 */
function plan(seed: number, shared: Field[]): Round[] {
	const installations = [...new Set(shared.map((f) => f.installation))];
	const random = prng(seed);
	const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
	const shuffled = <T>(list: T[]) =>
		list
			.map((entry) => ({ entry, key: random() }))
			.sort((a, b) => a.key - b.key)
			.map(({ entry }) => entry);
	const transient: Array<Partial<FaultRule>> = [
		{ status: 429 },
		{ status: 502 },
		{ status: 503 },
		{ reset: 'before' },
		{ reset: 'after' },
		{ delayMs: 40 },
	];
	const statusCall: Array<Partial<FaultRule>> = [
		...transient,
		{ malformedJson: true },
		{ successFalse: true },
	];
	return Array.from({ length: ROUNDS }, (_, round) => {
		const count = int(2, 4);
		const fields = shuffled(shared);
		const executions = Array.from({ length: count }, (_, e): Execution => {
			// Each execution owns its own fields in this round; both installations are shared by all.
			const own = fields.filter((_, i) => i % count === e);
			return {
				title: `overlap-${round}-${e}`,
				changes: own.map((f) => ({
					...f,
					value:
						f.kind === 'number'
							? round * 100 + e
							: f.kind === 'listRef'
								? `{%3:r${round}e${e}%}`
								: `r${round}-e${e}-${f.field}`,
				})),
				concurrency: pick([1, 2, 8]),
				continueOnFail: random() < 0.5,
			};
		});
		const faults: FaultRule[] = [];
		for (let i = 0; i < int(4, 8); i++) {
			const installation = pick(installations);
			const [method, path, kinds] = pick<[string, string, Array<Partial<FaultRule>>]>([
				['PAUSE', `/solution/installation/${installation}`, statusCall],
				['PLAY', `/solution/installation/${installation}`, statusCall],
				['GET', `/solution/installation/${installation}`, transient],
				['PUT', `/bundle/data/${pick(shared).step}`, transient],
				['GET', '/solution/installation', transient],
				[
					'POST',
					'/solution/102/installation',
					[{ reset: 'after' }, { reset: 'before' }, { status: 503 }, { delayMs: 40 }],
				],
			]);
			faults.push({ method, path, ...pick(kinds), retryAfterSeconds: 0 } as FaultRule);
		}
		return {
			executions,
			toggle:
				random() < 0.4 ? { installation: pick(installations), start: random() < 0.5 } : undefined,
			after:
				random() < 0.5 ? { installation: pick(installations), start: random() < 0.5 } : undefined,
			faults,
			variants: {
				statusShape: random() < 0.3 ? 'string' : 'number',
				detailWithoutStatus: random() < 0.3,
			},
		};
	});
}

const install = (title: string): INodeParameters =>
	installParams(title, { requestOptions: RETRIES });
const toggle = (installation: number, start: boolean): INodeParameters => ({
	resource: 'installation',
	operation: start ? 'start' : 'pause',
	installationId: byId('id', installation),
	requestOptions: RETRIES,
});

it(`${ROUNDS} rounds of 2–4 overlapping executions: no duplicate, no lost change, no installation left paused`, async () => {
	// Two more shared installations, made by the node itself before the faults begin: one started,
	// one paused.
	const fields = [...FIXTURE_FIELDS];
	for (const [i, title] of ['overlap-shared-a', 'overlap-shared-b'].entries()) {
		const made = await runNode(ctx.emu, install(title));
		expect(made.error).toBeUndefined();
		const id = Number(made.json[0].id);
		if (i === 0) expect((await runNode(ctx.emu, toggle(id, true))).error).toBeUndefined();
		const bundleId = ctx.emu.state.installations.get(id)!.bundleIds[0];
		const [first, second] = ctx.emu.state.bundles.get(bundleId)!.stepIds;
		fields.push(
			{
				installation: id,
				bundle: bundleId,
				step: first,
				field: 'cf__0f3e5a7b9c1d4e2f',
				kind: 'listRef',
			},
			{ installation: id, bundle: bundleId, step: second, field: 'sheetName', kind: 'string' },
			{ installation: id, bundle: bundleId, step: second, field: 'startRow', kind: 'number' },
		);
	}
	const SHARED = [...new Set(fields.map((f) => f.installation))];
	const rounds = plan(SEED, fields);
	const problems: string[] = [];
	const failedInstalls: string[] = [];
	let updates = 0;
	for (const [r, round] of rounds.entries()) {
		const before = new Map(SHARED.map((id) => [id, ctx.emu.state.installations.get(id)!.status]));
		ctx.emu.setVariants(round.variants);
		for (const fault of round.faults) ctx.emu.faults.add(fault);

		const runs = await Promise.all([
			...round.executions.map(async (execution) => {
				const installed = await runNode(ctx.emu, install(execution.title), {
					continueOnFail: true,
				});
				const updated = await runNode(
					ctx.emu,
					guardedUpdateFromItems({
						fieldValues: '={{ JSON.stringify({ [$json.field]: $json.value }) }}',
						requestOptions: { ...RETRIES, concurrency: execution.concurrency },
					}),
					{
						inputItems: execution.changes as unknown as IDataObject[],
						continueOnFail: execution.continueOnFail,
					},
				);
				return { execution, installed, updated };
			}),
			round.toggle
				? runNode(ctx.emu, toggle(round.toggle.installation, round.toggle.start))
				: undefined,
		]);
		ctx.emu.faults.clear();
		ctx.emu.setVariants({ statusShape: 'number', detailWithoutStatus: false });

		for (const outcome of runs) {
			if (!outcome || !('execution' in outcome)) continue;
			const { execution, installed, updated } = outcome as {
				execution: Execution;
				installed: NodeRun;
				updated: NodeRun;
			};
			// No duplicates: exactly one installation per successful install, none for a failed one.
			const titled = [...ctx.emu.state.installations.values()].filter(
				(i) => i.title === execution.title,
			).length;
			const ok = installed.json[0]?.error === undefined;
			if (!ok) failedInstalls.push(`${execution.title}: ${String(installed.json[0]?.error)}`);
			if (titled !== (ok ? 1 : 0))
				problems.push(
					`round ${r}: ${titled} installations titled ${execution.title} after a ${ok ? 'successful' : 'failed'} install`,
				);
			// Every update applied and reported as applied.
			if (updated.error) problems.push(`round ${r}: update run failed: ${updated.error.message}`);
			execution.changes.forEach((change, i) => {
				updates++;
				const item = updated.json[i];
				if (!item || item.error !== undefined)
					problems.push(
						`round ${r}: ${change.step}.${change.field} failed: ${String(item?.error)}`,
					);
				if (item?.restartError)
					problems.push(`round ${r}: restart failed: ${String(item.restartError)}`);
				const value = ctx.emu.state.bundleData
					.get(change.step)!
					.fields.find((f) => f.name === change.field)!.value;
				if (value !== change.value)
					problems.push(
						`round ${r}: ${change.step}.${change.field} is ${String(value)}, expected ${String(change.value)}`,
					);
			});
		}
		// Statuses: as before the round, or as the Start/Pause sent during it asked.
		for (const id of SHARED) {
			const allowed = new Set([before.get(id)]);
			if (round.toggle?.installation === id) allowed.add(round.toggle.start ? 1 : 0);
			const now = ctx.emu.state.installations.get(id)!.status;
			if (!allowed.has(now))
				problems.push(
					`round ${r}: installation ${id} is ${now}, expected one of ${[...allowed].join(', ')}`,
				);
		}
		// A lone Start/Pause after the round must simply hold.
		if (round.after) {
			const run = await runNode(ctx.emu, toggle(round.after.installation, round.after.start));
			if (run.error)
				problems.push(
					`round ${r}: lone ${round.after.start ? 'start' : 'pause'} failed: ${run.error.message}`,
				);
			if (
				ctx.emu.state.installations.get(round.after.installation)!.status !==
				(round.after.start ? 1 : 0)
			)
				problems.push(`round ${r}: lone toggle did not hold`);
		}
	}
	expect(problems).toEqual([]);
	expect(updates).toBe(ROUNDS * fields.length);
	// The faults really happened, and the executions really overlapped: some PUTs met an installation
	// that another execution had started again (and were paused again and sent again).
	expect(
		ctx.emu.requests.filter((entry) => entry.fault !== undefined).length,
	).toBeGreaterThanOrEqual(ROUNDS * 4);
	expect(
		ctx.emu.requests.filter((entry) => entry.method === 'PUT' && entry.status === 422).length,
	).toBeGreaterThan(0);
}, 60_000);
