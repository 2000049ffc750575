/**
 * Runs `task` over `entries` with at most `limit` in flight; a task returning false stops new
 * starts. (No runtime dependencies are allowed in community nodes, so no p-limit.)
 */
export async function mapLimited<T>(
	entries: T[],
	limit: number,
	task: (entry: T) => Promise<boolean>,
): Promise<void> {
	let next = 0;
	let stopped = false;
	const worker = async () => {
		while (!stopped && next < entries.length) {
			const entry = entries[next++];
			if (!(await task(entry))) stopped = true;
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, worker));
}
