import { guardedUpdateFromItems, runNode, useEmulator } from '../../support/setup';
const ctx = useEmulator();
const NO_RETRIES = { requestOptions: { maxRetries: 0, retryBudget: 10, concurrency: 1 } };
const ACME = '/solution/installation/5001';
const up = (items: object[], continueOnFail = false) =>
	runNode(ctx.emu, guardedUpdateFromItems(NO_RETRIES), { inputItems: items as never, continueOnFail });
const dump = (label: string, run: Awaited<ReturnType<typeof up>>) =>
	console.log(label, JSON.stringify({ calls: run.calls, json: run.json, err: run.error && { m: run.error.message, d: run.error.description, c: run.error.context } }, null, 1));
const S2 = { installation: 5001, bundle: 7001, step: 9002, values: { subject: 'S', doubleOptIn: true } };
const BAD1 = { installation: 5001, bundle: 7001, step: 9001, values: { unknownField: 1 } };
it('p1 play lost twice', async () => {
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, reset: 'after', times: 2 });
	dump('P1a', await up([S2], true));
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, reset: 'after', times: 2 });
	dump('P1b', await up([S2]));
});
it('p2 failed + done, play 503', async () => {
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
	dump('P2', await up([BAD1, S2]));
});
it('p3 pause+play 503', async () => {
	ctx.emu.faults.add({ method: 'PAUSE', path: ACME, status: 503 });
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
	dump('P3a', await up([S2]));
	ctx.emu.faults.add({ method: 'PAUSE', path: ACME, status: 503 });
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
	dump('P3b', await up([S2], true));
});
it('p4 put empty body', async () => {
	ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', emptyBody: true });
	dump('P4', await up([S2], true));
});
it('p5 detail 404/503', async () => {
	ctx.emu.faults.add({ method: 'GET', path: ACME, status: 503 });
	dump('P5', await up([S2, { ...S2, step: 9001, values: { onlyNew: false } }], true));
});
it('p6 not part', async () => {
	dump('P6a', await up([{ installation: 5001, bundle: 7003, step: 9006, values: { subject: 'x' } }, S2], true));
	dump('P6b', await up([{ installation: 5001, bundle: 7003, step: 9006, values: { subject: 'x' } }]));
});
it('p7 no status', async () => {
	ctx.emu.setVariants({ statusCallWithoutStatus: true });
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
	dump('P7a', await up([S2], true));
	dump('P7b', await up([S2], true));
});
it('p8 put lost + play 503', async () => {
	ctx.emu.faults.add({ method: 'PUT', path: '/bundle/data/9002', reset: 'after' });
	ctx.emu.faults.add({ method: 'PLAY', path: ACME, status: 503 });
	dump('P8', await up([S2], true));
});
