// The n8n workers' clock in `npm run bench:fleet -- --weeks N` (scripts/lib/fleetYear.mjs): moved
// with the emulator's, a week at a time, through Debian's libfaketime (package `faketime`), for as
// long as the node reads "now" from the machine's clock rather than from the service's answers.
//
// `--worker-clock auto` (default): libfaketime when installed, else installed with apt-get (root on
// Debian), else the workers keep the real time and the results say so. `faketime`: required (the
// bench stops without it). `real`: never (a node that takes "now" from the service needs nothing).
// The workers get LD_PRELOAD with FAKETIME_TIMESTAMP_FILE (read at each call: FAKETIME_NO_CACHE) and
// FAKETIME_DONT_FAKE_MONOTONIC, so that timers, performance.now() and the store trace keep real time.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const LIBRARIES = [
	'/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
	'/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
	'/usr/lib/faketime/libfaketime.so.1',
	'/usr/local/lib/faketime/libfaketime.so.1',
];
const findLibrary = () => LIBRARIES.find((file) => existsSync(file));

/** libfaketime's path, installed with apt-get when missing and possible; undefined otherwise. */
function ensureLibrary(log) {
	const found = findLibrary();
	if (found || process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) return found;
	log('  installing libfaketime: apt-get install -y faketime');
	for (const steps of [
		[['install', '-y', '-qq', 'faketime']],
		[
			['update', '-qq'],
			['install', '-y', '-qq', 'faketime'],
		],
	]) {
		try {
			for (const step of steps) execFileSync('apt-get', step, { stdio: 'ignore' });
			if (findLibrary()) return findLibrary();
		} catch {
			// the next way, or none
		}
	}
	return undefined;
}

/** The workers keep the machine's time: no environment, moves do nothing. */
const realClock = (note) => ({ mode: 'real', note, env: {}, offsetMs: 0, set: async () => {} });

/**
 * The workers' clock for `mode` ('auto' | 'faketime' | 'real'): `env` for the workers,
 * `set(at)` moves it so that it reads `at` now (never backwards), `offsetMs` its lead on real time.
 */
export async function workerClock(mode, dir, log = console.log) {
	if (!['auto', 'faketime', 'real'].includes(mode))
		throw new Error(`--worker-clock wants auto, faketime or real, got "${mode}"`);
	if (mode === 'real') return realClock('--worker-clock real');
	const library = ensureLibrary(log);
	if (!library) {
		if (mode === 'faketime')
			throw new Error(
				'--worker-clock faketime: libfaketime is not installed (apt-get install faketime)',
			);
		log('  libfaketime not available: the workers keep the real time (--worker-clock real)');
		return realClock('libfaketime not available');
	}
	const file = path.join(dir, 'worker-clock');
	await writeFile(file, '+0\n');
	const clock = {
		mode: 'faketime',
		library,
		env: {
			LD_PRELOAD: library,
			FAKETIME_TIMESTAMP_FILE: file,
			FAKETIME_NO_CACHE: '1',
			FAKETIME_DONT_FAKE_MONOTONIC: '1',
		},
		offsetMs: 0,
		async set(at) {
			// Whole seconds, rounded up: a worker a moment behind `at` would end a window one tick early.
			clock.offsetMs = Math.max(clock.offsetMs, Math.ceil((at - Date.now()) / 1000) * 1000);
			await writeFile(file, `+${clock.offsetMs / 1000}\n`);
		},
	};
	return clock;
}
