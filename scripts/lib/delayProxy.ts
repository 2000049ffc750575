/**
 * A loopback TCP proxy that adds a round-trip time: every byte waits rttMs/2 in each direction, and
 * a new connection carries nothing for one full round trip first (the TCP handshake a real network
 * would cost), so a TLS client pays connect + handshake + request as it would over the internet.
 * Bytes stay in order; ends and resets are passed on after the same delay.
 *
 *   npx ts-node --transpile-only scripts/lib/delayProxy.ts <targetPort> <rttMs>[,<rttMs>…]
 * prints `PROXY <rttMs> <port>` per proxy, then runs until killed (benchmarks run it in a child
 * process, so its timers do not compete with the measured client's event loop).
 */
import net from 'net';

/** Delivers chunks to `write` in order, each no earlier than its due time. */
function delayedPipe(write: (chunk: Buffer | null) => void) {
	const queue: Array<{ due: number; chunk: Buffer | null }> = [];
	let timer: NodeJS.Timeout | undefined;
	const drain = () => {
		timer = undefined;
		const now = performance.now();
		while (queue.length && queue[0].due <= now + 0.5) write(queue.shift()!.chunk);
		if (queue.length) timer = setTimeout(drain, queue[0].due - now);
	};
	return (chunk: Buffer | null, due: number) => {
		const last = queue.length ? queue[queue.length - 1].due : 0;
		queue.push({ chunk, due: Math.max(due, last) });
		if (!timer) timer = setTimeout(drain, Math.max(0, queue[0].due - performance.now()));
	};
}

export function startDelayProxy(
	targetPort: number,
	rttMs: number,
	host = '127.0.0.1',
): Promise<net.Server> {
	const oneWay = rttMs / 2;
	const server = net.createServer({ allowHalfOpen: true }, (client) => {
		const accepted = performance.now();
		client.setNoDelay(true);
		const upstream = net.connect({ port: targetPort, host, allowHalfOpen: true });
		upstream.setNoDelay(true);
		const forward = (socket: net.Socket) => (chunk: Buffer | null) => {
			if (!socket.writable) return;
			if (chunk) socket.write(chunk);
			else socket.end();
		};
		const toServer = delayedPipe(forward(upstream));
		const toClient = delayedPipe(forward(client));
		// Client bytes may leave only after the emulated handshake round trip, then travel one way.
		client.on('data', (chunk) =>
			toServer(chunk, Math.max(performance.now(), accepted + rttMs) + oneWay),
		);
		client.on('end', () => toServer(null, Math.max(performance.now(), accepted + rttMs) + oneWay));
		upstream.on('data', (chunk) => toClient(chunk, performance.now() + oneWay));
		upstream.on('end', () => toClient(null, performance.now() + oneWay));
		const destroyBoth = () => {
			setTimeout(() => {
				client.destroy();
				upstream.destroy();
			}, oneWay);
		};
		client.on('error', destroyBoth);
		upstream.on('error', destroyBoth);
		client.on('close', () => toServer(null, performance.now() + oneWay));
		upstream.on('close', () => toClient(null, performance.now() + oneWay));
	});
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, () => resolve(server));
	});
}

if (require.main === module) {
	const [target, rtts] = process.argv.slice(2);
	void (async () => {
		for (const rtt of (rtts ?? '').split(',').map(Number)) {
			const server = await startDelayProxy(Number(target), rtt);
			console.log(`PROXY ${rtt} ${(server.address() as net.AddressInfo).port}`);
		}
	})();
}
