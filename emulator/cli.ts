/**
 * `npm run emulator [-- --port 4010] [--quiet] [--tls-cert cert.pem --tls-key key.pem]`: runs the
 * emulator until Ctrl-C (HTTPS with the two PEM files).
 * Port: --port, else env PORT, else 4010 (0 = a free port).
 */
import { readFileSync } from 'fs';

import { startEmulator } from './index';

function argValue(name: string): string | undefined {
	const args = process.argv.slice(2);
	const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (i === -1) return undefined;
	return args[i].includes('=') ? args[i].split('=')[1] : args[i + 1];
}

async function main(): Promise<void> {
	const port = Number(argValue('--port') ?? process.env.PORT ?? 4010);
	if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${port}`);
	const quiet = process.argv.includes('--quiet');
	const cert = argValue('--tls-cert');
	const key = argValue('--tls-key');
	if (Boolean(cert) !== Boolean(key)) throw new Error('--tls-cert and --tls-key go together');
	const tls = cert && key ? { cert: readFileSync(cert), key: readFileSync(key) } : undefined;
	const emu = await startEmulator({
		port,
		host: argValue('--host') ?? '127.0.0.1',
		tls,
		log: quiet ? undefined : (line) => console.log(line),
	});
	const token = emu.token({ expiresInSeconds: 24 * 3600 });
	console.log(`Solution Installation Service emulator listening on ${emu.baseUrl}`);
	console.log(`Base URL: ${emu.baseUrl}`);
	console.log(`Token (user-1, valid 24 h): ${token}`);
	console.log(`Try: curl -s -H "Authorization: Bearer ${token}" ${emu.baseUrl}/solution/apps`);
	console.log(
		`     curl -s -X PLAY -H "Authorization: Bearer ${token}" ${emu.baseUrl}/solution/installation/5002`,
	);
	console.log(`Partner name: ${emu.partner.name}`);
	console.log(
		`Master token: ${emu.partner.masterToken}   (Authorization: Basic <token>, or Basic base64("<token>:"))`,
	);
	console.log(
		`Try: curl -s -X POST -H "Authorization: Basic ${emu.partner.masterToken}" -H "Content-Type: application/json" -d '{"id":"customer-1"}' ${emu.baseUrl}/wl/${emu.partner.name}/add-user`,
	);
	console.log(`Control surface: ${emu.baseUrl}/__emulator   (Ctrl-C to stop)`);

	let closing = false;
	const stop = () => {
		if (closing) return;
		closing = true;
		void emu.close().then(() => process.exit(0));
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((err) => {
	console.error(err instanceof Error ? err.message : err);
	process.exit(1);
});
