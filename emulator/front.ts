/**
 * The `net` front that gets custom methods (PLAY, PAUSE) past Node's HTTP parser.
 *
 * llhttp only knows the methods in `http.METHODS` and answers anything else with
 * 400 "Invalid method" before a handler runs. So every connection goes through a small
 * interceptor: at the start of each request it reads the method token; a standard method
 * passes untouched, an unknown one has its request line rewritten to `POST` plus an
 * `x-http-method: <METHOD>` header (buffering until the whole line has arrived, however
 * many TCP packets it takes). The handler answers rewritten requests with
 * `Connection: close`.
 *
 * Every request on a keep-alive connection is inspected, not only the first: clients
 * (Node's keep-alive agent, axios, n8n) reuse a socket from an earlier GET for a later
 * PLAY. The interceptor goes back to "expect a request line" once the previous request
 * was read to its end and its response finished; pipelined requests (sent before the
 * previous response) are passed through unchecked.
 */
import http from 'http';
import net from 'net';
import tls from 'tls';

const STANDARD = new Set(http.METHODS);
const TOKEN = /^[A-Z][A-Z0-9_-]*$/;
/** Longest request line we buffer before giving up and letting llhttp answer. */
const MAX_LINE = 16 * 1024;

/** Header the front adds to rewritten requests. */
export const METHOD_HEADER = 'x-http-method';

interface Interceptor {
	/** Called when the current request is complete: the next bytes start a new request. */
	expectRequestLine(): void;
	/** Set when the current request was rewritten (so the header is trusted, not client-sent). */
	rewrittenMethod?: string;
}

const interceptors = new WeakMap<net.Socket, Interceptor>();

/** The custom method of a request rewritten by the front, else undefined (a client-sent x-http-method is ignored). */
export function customMethodOf(req: http.IncomingMessage): string | undefined {
	return interceptors.get(req.socket)?.rewrittenMethod;
}

/** Marks a request's end so that the interceptor inspects the next request line. */
export function trackRequestEnd(req: http.IncomingMessage, res: http.ServerResponse): void {
	const interceptor = interceptors.get(req.socket);
	if (!interceptor) return;
	let pending = 2;
	const done = () => {
		if (--pending === 0) interceptor.expectRequestLine();
	};
	if (req.complete) pending--;
	else req.once('end', done);
	res.once('finish', done);
}

/**
 * Creates the listening front; connections are handed to `httpServer` (which must not listen itself).
 * With `tlsOptions` it serves HTTPS: the interceptor then reads the decrypted bytes.
 */
export function createFront(httpServer: http.Server, tlsOptions?: tls.TlsOptions): net.Server {
	if (tlsOptions) return tls.createServer(tlsOptions, (socket) => attach(httpServer, socket));
	return net.createServer((socket) => attach(httpServer, socket));
}

function attach(httpServer: http.Server, socket: net.Socket): void {
	httpServer.emit('connection', socket);
	// Node's server reads through one 'data' listener (adding ours also makes it leave the
	// C++ fast path, so all bytes come through JavaScript); wrap that listener.
	const [parserOnData] = socket.listeners('data') as ((chunk: Buffer) => void)[];
	if (!parserOnData) throw new Error('emulator front: HTTP server did not attach a data listener');
	socket.removeListener('data', parserOnData);

	let atLineStart = true;
	let pending: Buffer | undefined;
	const interceptor: Interceptor = {
		expectRequestLine() {
			atLineStart = true;
		},
	};
	interceptors.set(socket, interceptor);

	socket.on('data', (chunk: Buffer) => {
		if (!atLineStart) return parserOnData(chunk);
		const data = pending ? Buffer.concat([pending, chunk]) : chunk;
		pending = undefined;
		const space = data.indexOf(0x20);
		if (space === -1 && data.length < MAX_LINE) {
			pending = data; // method token not complete yet
			return;
		}
		const method = data.toString('latin1', 0, space === -1 ? data.length : space);
		if (space === -1 || STANDARD.has(method) || !TOKEN.test(method)) {
			atLineStart = false;
			interceptor.rewrittenMethod = undefined;
			return parserOnData(data);
		}
		const eol = data.indexOf('\r\n');
		if (eol === -1) {
			if (data.length < MAX_LINE)
				pending = data; // request line split across packets
			else parserOnData(data);
			return;
		}
		atLineStart = false;
		interceptor.rewrittenMethod = method;
		const rewritten = Buffer.concat([
			Buffer.from('POST', 'latin1'),
			data.subarray(space, eol + 2),
			Buffer.from(`${METHOD_HEADER}: ${method}\r\n`, 'latin1'),
			data.subarray(eol + 2),
		]);
		parserOnData(rewritten);
	});
}
