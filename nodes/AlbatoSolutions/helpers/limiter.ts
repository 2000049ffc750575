/** Runs a task when fewer than `limit` are running; waiting tasks start in the order they asked (FIFO). */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function limiter(limit: number): Limiter {
	let running = 0;
	const waiting: Array<() => void> = [];
	return async (task) => {
		if (running < limit) running++;
		// The slot is handed over by the task that finishes, so `running` stays counted.
		else await new Promise<void>((resolve) => waiting.push(resolve));
		try {
			return await task();
		} finally {
			const next = waiting.shift();
			if (next) next();
			else running--;
		}
	};
}
