// The overlapping updates in queue mode (queue.mjs): 3 concurrent executions of "Pause, Update,
// Then Start Again" change the same field on the same 2 active installations; the emulator slows
// the installation calls so that they overlap, and each installation must end active with one of
// the 3 values.

import { post, subjectOf, UPDATE } from './queueSetup.mjs';

export async function checkOverlappingUpdates(checks, webhookBase, emulator, installations) {
	const state = await emulator.state();
	const targets = installations.slice(0, 2).map((installation) => {
		const record = state.bundleData.find(
			(r) =>
				installation.bundleIds.includes(r.bundleId) && r.fields.some((f) => f.name === 'subject'),
		);
		return { installationId: installation.id, bundleId: record.bundleId, stepId: record.id };
	});
	const subjects = ['Subject from run A', 'Subject from run B', 'Subject from run C'];
	await emulator.control('DELETE', '/requests');
	const first = targets[0].installationId;
	await slowInstallationCalls(emulator, first);
	const url = `${webhookBase}/webhook/${UPDATE.webhookPath}`;
	const responses = await Promise.all(subjects.map((subject) => post(url, { subject, targets })));
	await emulator.control('DELETE', '/faults');
	const failed = responses.filter((r) => r.status !== 200);
	checks.ok(
		'3 overlapping executions, each updating the same 2 active installations, all succeed',
		failed.length === 0,
		() => failed.map((r) => `${r.status} ${r.text.slice(0, 400)}`).join('\n'),
	);
	await checkActiveAgain(checks, emulator, targets, subjects);
	await checkInterleaved(checks, emulator, first);
}

/**
 * 600 ms per installation call (read, pause, update, start), like a distant service, so each
 * execution takes about 5 s: wide enough that the three overlap even when a loaded machine's
 * workers pick them up a second or two apart. The three first reads of the first installation
 * answer after 600, 1500 and 2100 ms: the second and third execution then read it while the
 * first one has it paused, and update it around the time the first one starts it again.
 * (Without this the three run in lockstep, or one after the other, and never collide.)
 */
async function slowInstallationCalls(emulator, first) {
	for (const delayMs of [600, 1500, 2100])
		await emulator.control('POST', '/faults', {
			method: 'GET',
			path: `/solution/installation/${first}`,
			delayMs,
		});
	await emulator.control('POST', '/faults', {
		path: '^/(solution/installation|bundle/data)/\\d+$',
		regex: true,
		times: 1000,
		delayMs: 600,
	});
}

/** Each installation active again, with one of the 3 values. */
async function checkActiveAgain(checks, emulator, targets, subjects) {
	const after = await emulator.state();
	for (const target of targets) {
		const installation = after.installations.find((i) => i.id === target.installationId);
		checks.equal(
			`installation ${target.installationId} is active again (not left paused)`,
			installation.status,
			1,
		);
		const subject = subjectOf(after, installation);
		checks.ok(
			`installation ${target.installationId}: subject is one of the 3 values`,
			subjects.includes(subject),
			`got ${JSON.stringify(subject)}`,
		);
	}
}

/** The order the service saw: the executions overlapped, and only the collision was refused. */
async function checkInterleaved(checks, emulator, first) {
	const calls = (await emulator.requests()).filter((c) => c.user);
	// The order the service saw: shows how the three executions interleaved.
	const short = { GET: 'get', PAUSE: 'pause', PUT: 'put', PLAY: 'play' };
	console.log(
		`    service saw: ${calls.map((c) => `${short[c.method] ?? c.method} ${c.path.match(/\d+$/)?.[0] ?? c.path}${c.status >= 400 ? `→${c.status}` : ''}`).join(', ')}`,
	);
	const reads = calls
		.map((c, i) => (c.method === 'GET' && c.path.endsWith(`/${first}`) ? i : -1))
		.filter((i) => i >= 0);
	const firstPlay = calls.findIndex((c) => c.method === 'PLAY' && c.path.endsWith(`/${first}`));
	checks.ok(
		'the executions overlapped (a second read of the installation before the first start)',
		reads.length > 1 && firstPlay > reads[1],
		'they ran one after the other: the test proves nothing about overlap',
	);
	const puts = calls.filter((c) => c.method === 'PUT' && c.status < 400);
	checks.ok(
		'emulator: at least 6 updates accepted (3 executions × 2 installations)',
		puts.length >= 6,
		`${puts.length} accepted`,
	);
	// A 422 on an update (the installation was active) is the collision itself; an overlap-safe
	// update may meet it and recover, so only other refusals are failures here.
	const rejected = calls
		.filter((c) => c.status >= 400 && !(c.method === 'PUT' && c.status === 422))
		.map((c) => `${c.method} ${c.path} ${c.status}`);
	checks.equal('emulator: no other call was refused', rejected, []);
}
