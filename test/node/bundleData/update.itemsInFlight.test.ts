/**
 * Bundle Data → Update within Items in Flight, through n8n-core: installations at once, steps of
 * one installation at once, changes to the same step in item order, never more requests open than
 * the limit, and still the minimum calls (one read, one pause, the PUTs, one start per active
 * installation).
 *
 * Overlap and the open-request count are taken from the emulator's log, whose entries are written
 * when a request arrives and get their status when it is answered (before the answer is sent): a
 * request that arrives while another is unanswered overlapped it. A sequential run answers the slow
 * call before sending the next.
 */
import type { RequestLogEntry } from '../../../emulator/types';
import { guardedUpdateFromItems, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

/**
 * Records, for every call as it arrives, which calls were still unanswered at that moment: exact,
 * from the emulator's own log (an entry is pushed on arrival and its status is set when it is
 * answered).
 */
function trackOpen() {
	const log = ctx.emu.requests;
	const push = log.push;
	const open = new Set<RequestLogEntry>();
	const openAtArrival = new Map<string, string[]>();
	let maxOpen = 0;
	const name = (entry: RequestLogEntry) => `${entry.method} ${entry.path}`;
	log.push = (...entries: RequestLogEntry[]) => {
		for (const entry of entries) {
			openAtArrival.set(name(entry), [...open].map(name));
			open.add(entry);
			maxOpen = Math.max(maxOpen, open.size);
			let status = entry.status;
			Object.defineProperty(entry, 'status', {
				enumerable: true,
				get: () => status,
				set: (value: number) => {
					status = value;
					if (value > 0) open.delete(entry);
				},
			});
		}
		return push.apply(log, entries);
	};
	return {
		/** Whether `a` and `b` were both unanswered at some moment. */
		overlapped: (a: string, b: string) =>
			Boolean(openAtArrival.get(a)?.includes(b) || openAtArrival.get(b)?.includes(a)),
		/** The most calls unanswered at once. */
		maxOpen: () => maxOpen,
		stop: () => {
			log.push = push;
		},
	};
}

const ALL_STEPS = [
	{ installation: 5001, bundle: 7001, step: 9001, values: { cf__1b9e04d7aa6c4f12: 55 } },
	{ installation: 5001, bundle: 7001, step: 9002, values: { subject: 'ACME says hi' } },
	{ installation: 5001, bundle: 7002, step: 9003, values: { minAmount: 250 } },
	{ installation: 5001, bundle: 7002, step: 9004, values: { tag: 'vip' } },
	{ installation: 5002, bundle: 7003, step: 9005, values: { cf__1b9e04d7aa6c4f12: 7 } },
	{ installation: 5002, bundle: 7003, step: 9006, values: { subject: 'Globex says hi' } },
];

describe('Bundle Data → Update within Items in Flight', () => {
	it('PUTs to different steps of one installation overlap; the minimum calls stay', async () => {
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9001', delayMs: 300 });
		const watch = trackOpen();
		const run = await runNode(
			ctx.emu,
			guardedUpdateFromItems({ requestOptions: { concurrency: 8 } }),
			{ inputItems: ALL_STEPS.slice(0, 4) },
		).finally(watch.stop);
		expect(run.error).toBeUndefined();
		expect(watch.overlapped('PUT /bundle/data/9001', 'PUT /bundle/data/9004')).toBe(true);
		expect([...run.calls].sort()).toEqual(
			[
				'GET /solution/installation/5001',
				'PAUSE /solution/installation/5001',
				'PLAY /solution/installation/5001',
				...[9001, 9002, 9003, 9004].map((s) => `PUT /bundle/data/${s}`),
			].sort(),
		);
		expect(run.calls.slice(0, 2)).toEqual([
			'GET /solution/installation/5001',
			'PAUSE /solution/installation/5001',
		]);
		expect(run.calls.at(-1)).toBe('PLAY /solution/installation/5001');
		expect(run.pairedItems).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
	});

	it('changes to the same step keep their item order (the last one wins)', async () => {
		ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', delayMs: 200 });
		const items = ['first', 'second', 'third'].map((subject) => ({
			installation: 5001,
			bundle: 7001,
			step: 9002,
			values: { subject },
		}));
		const run = await runNode(
			ctx.emu,
			guardedUpdateFromItems({ requestOptions: { concurrency: 8 } }),
			{ inputItems: [...items, ALL_STEPS[3]] },
		);
		expect(run.error).toBeUndefined();
		const puts = ctx.emu.requests.filter((entry) => entry.path === '/bundle/data/9002');
		expect(puts.map((entry) => (entry.body as { data: { subject: string } }).data.subject)).toEqual(
			['first', 'second', 'third'],
		);
		expect(
			ctx.emu.state.bundleData.get(9002)!.fields.find((f) => f.name === 'subject')!.value,
		).toBe('third');
		// The other step did not wait for the slow one.
		expect(run.calls.indexOf('PUT /bundle/data/9004')).toBeLessThan(
			run.calls.lastIndexOf('PUT /bundle/data/9002'),
		);
	});

	it('installations run at once: both are read at the same time', async () => {
		ctx.emu.faults.add({ method: 'GET', path: '/solution/installation/5001', delayMs: 300 });
		const watch = trackOpen();
		const run = await runNode(
			ctx.emu,
			guardedUpdateFromItems({ requestOptions: { concurrency: 4 } }),
			{ inputItems: [ALL_STEPS[1], ALL_STEPS[5]] },
		).finally(watch.stop);
		expect(run.error).toBeUndefined();
		expect(
			watch.overlapped('GET /solution/installation/5001', 'GET /solution/installation/5002'),
		).toBe(true);
		expect(ctx.emu.state.installations.get(5001)!.status).toBe(1);
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(0);
	});

	it.each([1, 3])(
		'Items in Flight %i: never more requests open at once, and the limit reached',
		async (concurrency) => {
			const watch = trackOpen();
			ctx.emu.faults.add({ method: 'PUT', path: /^\/bundle\/data\/\d+$/, delayMs: 60, times: 6 });
			const run = await runNode(
				ctx.emu,
				guardedUpdateFromItems({ requestOptions: { concurrency } }),
				{ inputItems: ALL_STEPS },
			).finally(watch.stop);
			expect(run.error).toBeUndefined();
			// 2 reads, one pause and one start for the active installation, 6 PUTs.
			expect(run.calls).toHaveLength(10);
			expect(watch.maxOpen()).toBe(concurrency);
		},
	);

	it('Items in Flight 1: the classic order, one installation after the other, PUTs in item order', async () => {
		const run = await runNode(
			ctx.emu,
			guardedUpdateFromItems({ requestOptions: { concurrency: 1 } }),
			{ inputItems: ALL_STEPS },
		);
		expect(run.calls).toEqual([
			'GET /solution/installation/5001',
			'PAUSE /solution/installation/5001',
			'PUT /bundle/data/9001',
			'PUT /bundle/data/9002',
			'PUT /bundle/data/9003',
			'PUT /bundle/data/9004',
			'PLAY /solution/installation/5001',
			'GET /solution/installation/5002',
			'PUT /bundle/data/9005',
			'PUT /bundle/data/9006',
		]);
	});
});
