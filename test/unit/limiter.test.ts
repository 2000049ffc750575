import { limiter } from '../../nodes/AlbatoSolutions/helpers/limiter';

/** A task that finishes only when the test says so, recording when it started. */
function gate(started: number[], id: number) {
	let open!: () => void;
	const done = new Promise<void>((resolve) => (open = resolve));
	return { task: async () => (started.push(id), await done, id), open };
}

describe('limiter', () => {
	it('runs at most `limit` tasks at once and starts the waiting ones in the order they asked', async () => {
		const limit = limiter(2);
		const started: number[] = [];
		const gates = [0, 1, 2, 3].map((id) => gate(started, id));
		const results = gates.map((g) => limit(g.task));
		await Promise.resolve();
		expect(started).toEqual([0, 1]);
		gates[1].open();
		await results[1];
		await new Promise((resolve) => setImmediate(resolve));
		expect(started).toEqual([0, 1, 2]);
		gates[0].open();
		gates[2].open();
		gates[3].open();
		expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
		expect(started).toEqual([0, 1, 2, 3]);
	});

	it('a failing task frees its slot', async () => {
		const limit = limiter(1);
		await expect(limit(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
		await expect(limit(async () => 'next')).resolves.toBe('next');
	});
});
