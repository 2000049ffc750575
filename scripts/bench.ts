/**
 * `npm run bench [-- --out bench-results.json] [--repeat 3] [--items 200] [--serial-items 10]
 *                 [--memory-items 10000] [--cpu-calls 300] [--changes 200] [--installations 20] [--dist dist]`
 *
 * What users feel: HTTPS with real round trips. The set-up (this process):
 *  - a throw-away CA and server certificate (Debian's openssl, scripts/lib/tlsCert.ts);
 *  - the emulator serving HTTPS with it, in a child process;
 *  - loopback TCP proxies adding 50 and 150 ms round trips, connection set-up included
 *    (scripts/lib/delayProxy.ts), in another child process;
 *  - the measurements in a third child process started with NODE_EXTRA_CA_CERTS = the CA: n8n-core's
 *    request helper makes a new https.Agent per call with no CA option, so that is how it trusts the
 *    certificate for this run only (verification stays on).
 * The measurements (`--measure`), per round trip, median of `--repeat` interleaved repeats:
 *  - `ideal`   a keep-alive https client: 1, 8, 32 in flight;
 *  - `helper`  n8n-core's httpRequest alone (what our transport ends in), the options our transport sends;
 *  - `node`    the built node (dist/) in n8n-core's engine, Installation → Get: 1, 8, 32 and defaults.
 *  Each in ms per item: 200 items (`--items`); 1 in flight uses `--serial-items` (its calls are
 *  independent: 200 of them would take 100 s at 150 ms).
 * Also: CPU ms per call (process.cpuUsage, loopback HTTPS, no delay) of the helper and the node;
 * a bulk update (200 changes over 20 active installations, Pause/Update/Start) at 150 ms: calls made,
 * the minimum, seconds; heap retained after GC for 10,000 items (fresh process, plain HTTP to a second
 * emulator: TLS would only add minutes). JSON to `--out`.
 */
import { measure } from './bench/measure';
import { parent } from './bench/parent';

// n8n-core writes instance settings under N8N_USER_FOLDER: keep them out of $HOME (as the tests do).
import '../harness/n8nUserFolder';

(process.argv.includes('--measure') || process.argv.includes('--memory-child')
	? measure()
	: parent()
).catch((err) => {
	console.error(err);
	process.exit(1);
});
