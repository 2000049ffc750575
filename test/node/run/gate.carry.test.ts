/**
 * Run → Get New's gate (gate.ts) as one worker runs it, against n8n's deduplication store as the
 * harness keeps it: what the worker's store calls carry back after another worker erased its
 * records. A unit of gate.ts: the sizes here (tens of thousands of keys) are what a fleet's batches
 * decide, too many for the suite to sweep through the emulator.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { MemoryDeduplicator } from '../../../harness';

type Gate = typeof import('../../../nodes/AlbatoSolutions/actions/run/gate');

/** gate.ts as a fresh worker process loads it (its carried keys are per process). */
function freshGate(): Gate {
	let gate: Gate | undefined;
	jest.isolateModules(() => {
		gate = jest.requireActual<Gate>('../../../nodes/AlbatoSolutions/actions/run/gate');
	});
	return gate!;
}

const workflow = { id: 'wf-carry' };
const node = { id: 'node-carry', name: 'Watch' };

/** One execution's view of n8n: its store helpers on `store`, its log. */
function execution(store: MemoryDeduplicator, id: string, warnings: string[]) {
	const contextData = { workflow, node } as never;
	return {
		getWorkflow: () => workflow,
		getNode: () => node,
		getExecutionId: () => id,
		logger: { warn: (message: string) => warnings.push(message) },
		helpers: {
			checkProcessedAndRecord: async (items: string[], scope: 'node', options: never) =>
				await store.checkProcessedAndRecord(items, scope, contextData, options),
			getProcessedDataCount: async (scope: 'node') =>
				await store.getProcessedDataCount(scope, contextData),
		},
	} as unknown as IExecuteFunctions;
}

const keys = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}\n${i}`);

describe('Run → Get New: a worker carries back every key its gates decided lately', () => {
	it('however many its later batches decided (60,000 after them): the erased batch is put back', async () => {
		const gate = freshGate();
		const store = new MemoryDeduplicator();
		const warnings: string[] = [];
		const options = { settleMs: 0 };
		/** The gate's rounds: these keys, once. */
		const once = (sent: string[]) => {
			let done = false;
			return () => (done ? [] : ((done = true), sent));
		};
		const first = keys('batch-1', 100);

		expect(
			(await gate.passGate(execution(store, '1', warnings), once(first), options)).passed.size,
		).toBe(100);
		// Later batches of the same worker decide 60,000 keys (three first-sweep batches of 5,000
		// customers: 20,250 each at 100,000 customers).
		for (const batch of [2, 3, 4]) {
			const decided = keys(`batch-${batch}`, 20_000);
			const { passed } = await gate.passGate(
				execution(store, String(batch), warnings),
				once(decided),
				options,
			);
			expect(passed.size).toBe(decided.length);
		}

		// Another worker's call that read the list before batch 1 wrote it writes it back: batch 1's
		// records are gone.
		await store.removeProcessed(first, 'node', { workflow, node } as never);
		const held = async () => await store.getProcessedDataCount('node', { workflow, node } as never);
		expect(await held()).toBe(60_000 + 4); // the later batches' keys and the four markers

		// This worker's next call, a small batch's, puts every one of them back.
		const next = keys('batch-5', 10);
		const { passed } = await gate.passGate(execution(store, '5', warnings), once(next), options);
		expect([...passed].sort()).toEqual([...next].sort());
		const again = await store.checkProcessedAndRecord(first, 'node', { workflow, node } as never, {
			mode: 'entries',
		});
		expect(again.new).toEqual([]); // each of batch 1's records is back
		expect(warnings.some((warning) => warning.startsWith('Run → Get New: 100 records'))).toBe(true);
	});
});

describe('Run → Get New: a window carried past a pause goes until a gate sees it hold', () => {
	const CARRY_MS = 30 * 60_000;
	let now = Date.UTC(2027, 0, 18, 21, 5);
	beforeEach(() => jest.spyOn(Date, 'now').mockImplementation(() => now));
	afterEach(() => jest.restoreAllMocks());

	it('after a week: put back again when a call of the first burst erases it, then no more', async () => {
		const gate = freshGate();
		const store = new MemoryDeduplicator();
		const context = { workflow, node } as never;
		let call = 0;
		/** A gate of this worker; `meets`: another worker's call that read before its write. */
		const decide = async (sent: string[], meets = false) => {
			let done = false;
			const ctx = execution(store, String(++call), []);
			const before = new Map([...store.rows].map(([k, v]) => [k, { ...v, data: [...v.data] }]));
			const whileSettling = async () => {
				if (meets) for (const [k, v] of before) store.rows.set(k, v); // it writes back what it read
			};
			const options = { settleMs: 0, carryMs: CARRY_MS, whileSettling };
			return await gate.passGate(ctx, () => (done ? [] : ((done = true), sent)), options);
		};
		const window = ['w\ng\nd\n100', 'w\ng\nd\n101', 'w\ng\nt\n101'];
		const missing = async () => {
			const { new: added } = await store.checkProcessedAndRecord(window, 'node', context, {
				mode: 'entries',
			});
			await store.removeProcessed(added, 'node', context); // a look, not a write
			return added;
		};
		const erase = async () => await store.removeProcessed(window, 'node', context);
		expect((await decide(window)).passed.size).toBe(3);

		now += 7 * 86_400_000; // the clocks jump a week: a catch-up
		await erase(); // a late write erased the window's keys after its sweep ended
		// The worker's first call after the pause carries them, and another worker's call erases that
		// write: the gate sees its marker gone, writes again, and the window goes with it.
		expect((await decide(['w\nh\nt\n1'], true)).passed.size).toBe(1);
		expect(await missing()).toEqual([]);

		// That write was seen to hold: the window is carried no more (a catch-up's 4,000 keys a group
		// would ride every call for 30 minutes).
		await erase();
		now += 60_000;
		await decide(['w\nh\nt\n2']);
		expect(await missing()).toEqual(window);
	});
});
