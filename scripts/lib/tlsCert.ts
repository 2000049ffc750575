/**
 * A throw-away certificate authority and a server certificate for 127.0.0.1/localhost, made with
 * Debian's `openssl` at run time (nothing downloaded; node:crypto makes keys but not certificates).
 * Trust is for one run only: pass `caFile` as NODE_EXTRA_CA_CERTS to a child process (n8n-core's
 * request helper builds a fresh https.Agent per call and takes no CA option, so that is the one
 * way to make it trust a certificate without turning verification off).
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import path from 'path';

export interface TestCertificate {
	dir: string;
	/** The CA certificate (PEM): what clients must trust. */
	caFile: string;
	/** The server's certificate and key (PEM), signed by the CA. */
	certFile: string;
	keyFile: string;
	remove(): void;
}

/**
 * Days the certificates are valid: 2, or BENCH_CERT_DAYS (bench:fleet --weeks moves its workers'
 * clock weeks ahead, and they must still trust the emulator).
 */
const DAYS = process.env.BENCH_CERT_DAYS ?? '2';

export function makeTestCertificate(): TestCertificate {
	const dir = mkdtempSync(path.join(tmpdir(), 'albato-tls-'));
	const file = (name: string) => path.join(dir, name);
	const openssl = (...args: string[]) =>
		execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
	// ECDSA P-256: what most public APIs serve today, and cheap handshakes.
	const ecKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
	openssl(
		'req',
		'-x509',
		...ecKey,
		'-keyout',
		'ca.key',
		'-out',
		'ca.pem',
		'-days',
		DAYS,
		'-subj',
		'/CN=Albato bench CA (throw-away)',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
	);
	openssl('req', ...ecKey, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
	writeFileSync(
		file('server.ext'),
		'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
	);
	openssl(
		'x509',
		'-req',
		'-in',
		'server.csr',
		'-CA',
		'ca.pem',
		'-CAkey',
		'ca.key',
		'-CAcreateserial',
		'-out',
		'server.pem',
		'-days',
		DAYS,
		'-extfile',
		'server.ext',
	);
	return {
		dir,
		caFile: file('ca.pem'),
		certFile: file('server.pem'),
		keyFile: file('server.key'),
		remove: () => rmSync(dir, { recursive: true, force: true }),
	};
}

// `ts-node scripts/lib/tlsCert.ts` prints a new certificate's files as JSON (for the .mjs scripts).
if (require.main === module) {
	const { dir, caFile, certFile, keyFile } = makeTestCertificate();
	console.log(JSON.stringify({ dir, caFile, certFile, keyFile }));
}
