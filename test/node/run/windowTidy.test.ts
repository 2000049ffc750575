/**
 * Run → Get New's sweep windows (window/claims.ts): a sweep's last calls against another worker's
 * store call that read the list before and writes it back after (n8n's store has no lock). The
 * sweep records again the keys it holds and removes its keys twice, so such a call neither erases
 * the ticks it returned (the next sweep would sweep them again) nor leaves the aged keys it removed.
 */
import { createHash } from 'crypto';

import { MemoryDeduplicator } from '../../../harness';
import {
	claimWindow,
	settleWindow,
} from '../../../nodes/AlbatoSolutions/actions/run/window/claims';
import {
	endTickAt,
	groupKeys,
	LOOKBACK_TICKS,
	TICK_MS,
} from '../../../nodes/AlbatoSolutions/actions/run/window/ticks';
import { useNodeClock } from '../../support/nodeClock';
import { storeExecution } from '../../support/storeExecution';

let workflow = { id: 'wf-tidy' };
beforeEach(() => (workflow = { id: `wf-tidy-${Math.random()}` }));
const node = { id: 'node-tidy', name: 'Watch' };
const MINUTE = 60_000;
const LATENESS = 10 * MINUTE;
const t0 = Math.floor(Date.UTC(2027, 5, 1) / TICK_MS) * TICK_MS;
const keys = groupKeys('');
const execution = (store: MemoryDeduplicator, id: string) =>
	storeExecution(store, { workflow, node }, id);
const FOREIGN = 'another worker';
const unhook = (store: MemoryDeduplicator) =>
	Object.assign(store, {
		beforeRead: undefined,
		betweenReadAndWrite: undefined,
		betweenRemoveReadAndWrite: undefined,
	});

/**
 * Another worker's call: it reads the list when `start` is called, and writes it back once the
 * sweep's reassert (its first record call after its first removal) is about to read.
 */
function staleCall(store: MemoryDeduplicator, { onRemoval = false } = {}) {
	let release: () => void = () => undefined;
	const held = new Promise<void>((resolve) => (release = resolve));
	let written: Promise<unknown> | undefined;
	let removing = false;
	store.betweenReadAndWrite = async (items) => {
		if (items.includes(FOREIGN)) await held;
	};
	store.betweenRemoveReadAndWrite = async () => {
		removing = true;
		if (onRemoval) void start();
	};
	store.beforeRead = async (items) => {
		if (!removing || items.includes(FOREIGN) || !written) return;
		release();
		await written;
	};
	function start() {
		return (written ??= execution(store, 'foreign').helpers.checkProcessedAndRecord(
			[FOREIGN],
			'node',
			{ mode: 'entries' } as never,
		));
	}
	// A sweep with no call after its removals: the other call writes once the sweep has ended.
	return { start, written: () => (release(), written) };
}

async function sweep(store: MemoryDeduplicator, id: string, at: number) {
	const ctx = execution(store, id);
	const claim = await claimWindow(ctx, { group: '', now: t0 + at * MINUTE, latenessMs: LATENESS });
	return {
		claim,
		settle: async () => await settleWindow(ctx, claim, { served: ['c1'], failed: false }),
	};
}

const hashOf = (value: string) => createHash('md5').update(value).digest('base64');
const rowOf = (store: MemoryDeduplicator) => [...store.rows.values()][0].data;
/** A write of the whole list, as another worker's call makes it (values recorded as the store does). */
function writeRow(store: MemoryDeduplicator, values: string[]) {
	const [context, row] = [...store.rows.entries()][0];
	store.rows.set(context, {
		mode: row.mode,
		data: values.map((v) => (v === FOREIGN ? hashOf(v) : v)),
	});
}

const inStore = async (store: MemoryDeduplicator, values: string[]) => {
	const { new: added } = await execution(store, 'probe').helpers.checkProcessedAndRecord(
		values,
		'node',
		{ mode: 'entries' } as never,
	);
	return values.filter((value) => !added.includes(value));
};

it('a call that read before the returned ticks were recorded and writes after the gate looked: the sweep records them again', async () => {
	const store = new MemoryDeduplicator();
	await (await sweep(store, 'first', 0)).settle();
	const { claim, settle } = await sweep(store, 'second', 30);
	expect(claim.own.length).toBeGreaterThan(0);
	const stale = staleCall(store);
	// It reads before the settle's first write (the ticks returned) and writes after the gate checked.
	store.beforeRead = ((later) => async (items) => {
		if (items.includes(keys.done(claim.own[0]))) void stale.start();
		await later?.(items);
	})(store.beforeRead);
	const settled = await settle();
	expect(stale.written()).toBeDefined();
	await stale.written();
	unhook(store);
	expect([...settled.allowed('c1')]).toEqual(claim.own);
	expect(await inStore(store, claim.own.map(keys.done))).toEqual(claim.own.map(keys.done));
});

it('a call that read before the aged keys were removed and writes after: the sweep removes them again', async () => {
	const store = new MemoryDeduplicator();
	await (await sweep(store, 'first', 0)).settle();
	const below = endTickAt(t0 + 30 * MINUTE, LATENESS) - LOOKBACK_TICKS;
	const aged = [1, 2, 3].flatMap((n) => [keys.taken(below - n), keys.done(below - n)]);
	// The first sweep's lookback: aged once the next one runs.
	expect(await inStore(store, aged)).toEqual(aged);
	const { settle } = await sweep(store, 'second', 30);
	const stale = staleCall(store, { onRemoval: true });
	await settle();
	expect(stale.written()).toBeDefined();
	await stale.written();
	unhook(store);
	expect(await inStore(store, aged)).toEqual([]);
});

describe("a window's keys erased after its sweep ended", () => {
	const { setNow } = useNodeClock();

	it.each([
		['15 minutes later (within its carry)', 15],
		['2 hours later (an hourly schedule: past its carry)', 120],
		['a day later (a pause)', 1440],
	])(
		"the worker's next sweep, %s, puts them back before any sweep takes the window over",
		async (_, gap) => {
			const store = new MemoryDeduplicator();
			const at = (minutes: number) => {
				setNow(t0 + minutes * MINUTE);
				return minutes;
			};
			await (await sweep(store, 'first', at(0))).settle();
			// Three days off: the catch-up's window is over its lease at once.
			const catchUp = await sweep(store, 'catch-up', at(3 * 1440));
			let before: string[] | undefined;
			store.beforeRead = async (items) => {
				if (items.includes(keys.done(catchUp.claim.own[0]))) before ??= [...rowOf(store)];
			};
			const settled = await catchUp.settle();
			unhook(store);
			expect([...settled.allowed('c1')]).toEqual(catchUp.claim.own);
			// Another worker's call read the list before the window's ticks were recorded returned, and
			// wrote it back once the sweep had ended.
			writeRow(store, [...before!, FOREIGN]);
			expect(rowOf(store)).not.toContain(hashOf(keys.done(catchUp.claim.own[0])));
			for (const [id, minutes] of [
				['next', 3 * 1440 + gap],
				['later', 3 * 1440 + gap + 30],
			] as const) {
				const next = await sweep(store, id, at(minutes));
				expect(next.claim.pending).toEqual([]);
				const returned = await next.settle();
				for (const tick of catchUp.claim.own) expect(returned.allowed('c1').has(tick)).toBe(false);
			}
		},
	);
});
