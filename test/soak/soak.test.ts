/**
 * Soak: 500+ mixed operations through n8n-core's engine while the emulator injects faults at random
 * (seeded, bounded, loopback only). Nothing may be lost or done twice: every install that reports
 * success exists exactly once, no failed install left one behind, every status and field value is
 * the last one asked for, and no installation is left paused by the node.
 */
import type { IDataObject } from 'n8n-workflow';

import type { FaultRule } from '../../emulator/types';
import {
	byId,
	guardedUpdateFromItems,
	installParams,
	prng,
	runNode,
	useEmulator,
} from '../support/setup';
import { useShortWaits } from '../support/waits';

const ctx = useEmulator();
/**
 * Faults here are counted, never timed (no delays, no list lag by time): the node's waits can be
 * short.
 */
useShortWaits();

const SEED = 20261121;
const ROUNDS = 10;
const RETRIES = { requestOptions: { maxRetries: 6, retryBudget: 30 } };

it(`${ROUNDS * 52} mixed operations under random faults lose and duplicate nothing`, async () => {
	const random = prng(SEED);
	const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
	const fault = (method: string, path: string, kinds: Array<Partial<FaultRule>>) =>
		ctx.emu.faults.add({ method, path, ...pick(kinds), retryAfterSeconds: 0 });
	const transient: Array<Partial<FaultRule>> = [
		{ status: 429 },
		{ status: 502 },
		{ status: 503 },
		{ status: 504 },
		{ reset: 'before' },
		{ reset: 'after' },
	];

	let operations = 0;
	const installed = new Map<string, boolean>();
	const expectedStatus = new Map<number, number>([
		[5001, 1],
		[5002, 0],
	]);
	const expectedValue = new Map<string, string>();
	const targets = [
		{ installation: 5001, bundle: 7001, step: 9002, field: 'subject' },
		{ installation: 5001, bundle: 7002, step: 9004, field: 'tag' },
		{ installation: 5002, bundle: 7003, step: 9006, field: 'subject' },
	];

	for (let round = 0; round < ROUNDS; round++) {
		// 1. Twelve installs, each title once; a lost answer must not make a second installation.
		const titles = Array.from({ length: 12 }, (_, i) => `soak-${round}-${i}`);
		for (let i = 0; i < 6; i++)
			fault('POST', '/solution/102/installation', [
				{ reset: 'after' },
				{ reset: 'before' },
				{ status: 503 },
			]);
		for (let i = 0; i < 2; i++) fault('GET', '/solution/installation', transient);
		const installs = await runNode(
			ctx.emu,
			// A lost answer that settles nothing fails after 0.5 s.
			installParams('={{ $json.title }}', { options: { lostAnswerCheck: 0.5 }, ...RETRIES }),
			{ inputItems: titles.map((title) => ({ title })), continueOnFail: true },
		);
		installs.json.forEach((item, i) => installed.set(titles[i], item.error === undefined));
		operations += titles.length;

		// 2. Twenty starts and pauses of the two installations, under transient faults.
		const toggles: IDataObject[] = Array.from({ length: 20 }, () => ({
			id: pick([5001, 5002]),
			start: random() < 0.5,
		}));
		for (let i = 0; i < 6; i++)
			fault(pick(['PLAY', 'PAUSE']), `/solution/installation/${pick([5001, 5002])}`, transient);
		for (const mode of ['start', 'pause'] as const) {
			const items = toggles.filter((toggle) => toggle.start === (mode === 'start'));
			if (items.length === 0) continue;
			const run = await runNode(
				ctx.emu,
				{
					resource: 'installation',
					operation: mode,
					installationId: byId('id', '={{ $json.id }}'),
					...RETRIES,
				},
				{ inputItems: items },
			);
			expect(run.error).toBeUndefined();
			for (const item of items) expectedStatus.set(item.id as number, mode === 'start' ? 1 : 0);
		}
		operations += toggles.length;

		// 3. Twenty field changes with "Pause, Update, Then Start Again", faults on every kind of call.
		const updates = Array.from({ length: 20 }, (_, i) => ({
			...pick(targets),
			value: `v-${round}-${i}`,
		}));
		for (let i = 0; i < 8; i++) {
			const target = pick(targets);
			const [method, path] = pick([
				['PUT', `/bundle/data/${target.step}`],
				['PAUSE', `/solution/installation/${target.installation}`],
				['PLAY', `/solution/installation/${target.installation}`],
				['GET', `/solution/installation/${target.installation}`],
			]);
			fault(method, path, transient);
		}
		const run = await runNode(
			ctx.emu,
			guardedUpdateFromItems({
				...RETRIES,
				fieldValues: '={{ JSON.stringify({ [$json.field]: $json.value }) }}',
			}),
			{ inputItems: updates },
		);
		expect(run.error).toBeUndefined();
		for (const update of updates) expectedValue.set(`${update.step}.${update.field}`, update.value);
		operations += updates.length;
		ctx.emu.faults.clear();
	}

	expect(operations).toBeGreaterThanOrEqual(500);
	const all = [...ctx.emu.state.installations.values()];
	// Each check below loops over what the rounds recorded: none of them may be empty.
	expect(installed.size).toBeGreaterThan(0);
	expect(expectedStatus.size).toBeGreaterThan(0);
	expect(expectedValue.size).toBeGreaterThan(0);
	for (const [title, succeeded] of installed) {
		expect([title, all.filter((installation) => installation.title === title).length]).toEqual([
			title,
			succeeded ? 1 : 0,
		]);
	}
	for (const [id, status] of expectedStatus)
		expect([id, ctx.emu.state.installations.get(id)!.status]).toEqual([id, status]);
	for (const [key, value] of expectedValue) {
		const [step, field] = key.split('.');
		expect([
			key,
			ctx.emu.state.bundleData.get(Number(step))!.fields.find((f) => f.name === field)!.value,
		]).toEqual([key, value]);
	}
	// Faults really happened: the log shows them.
	expect(
		ctx.emu.requests.filter((request) => request.status >= 429 || request.status === 0).length,
	).toBeGreaterThan(50);
}, 180_000);
