/**
 * Faults per customer (emulator/customerFaults.ts): a fault rule with `customers` applies to the
 * calls of a deterministic share of the end users, found by the installation a call names, the
 * step it writes, or the caller's token; `solutionId` narrows it to one solution's installations.
 */
import axios from 'axios';

import { startEmulator, type Emulator } from '../../emulator';
import { isChosen } from '../../emulator/customerFaults';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const control = (method: string, p: string, data?: unknown) =>
	axios.request({
		url: `${emu.baseUrl}/__emulator/${p}`,
		method,
		data,
		validateStatus: () => true,
	});

describe('isChosen', () => {
	const ids = Array.from({ length: 10_000 }, (_, n) => `c-${String(n).padStart(5, '0')}`);

	it('picks about the share asked, the same ones every time, another set per seed', () => {
		const chosen = ids.filter((id) => isChosen({ share: 0.01, seed: 'install' }, id));
		expect(chosen.length).toBeGreaterThan(70);
		expect(chosen.length).toBeLessThan(130);
		expect(ids.filter((id) => isChosen({ share: 0.01, seed: 'install' }, id))).toEqual(chosen);
		const other = ids.filter((id) => isChosen({ share: 0.01, seed: 'values' }, id));
		expect(other.filter((id) => chosen.includes(id)).length).toBeLessThan(10);
		// Neighbouring IDs are spread out, not chosen in runs.
		const runs = chosen.filter(
			(id, i) => i > 0 && Number(id.slice(2)) === Number(chosen[i - 1].slice(2)) + 1,
		);
		expect(runs.length).toBeLessThan(5);
	});

	it('share 0 picks nobody, share 1 everybody', () => {
		expect(ids.some((id) => isChosen({ share: 0 }, id))).toBe(false);
		expect(ids.every((id) => isChosen({ share: 1 }, id))).toBe(true);
	});
});

describe('a fault rule with customers', () => {
	it("fails the chosen customers' calls about one solution's installations, every time, through the control surface", async () => {
		const added = await control('POST', 'faults', {
			method: 'PAUSE',
			path: '^/solution/installation/\\d+$',
			regex: true,
			status: 422,
			times: 1e9,
			customers: { share: 1, solutionId: 101 },
		});
		expect(added.status).toBe(201);
		// 5001 (user-1, solution 101): refused, twice; 5003 (user-2, solution 102): not this rule's.
		expect((await call(emu, 'PAUSE', '/solution/installation/5001')).status).toBe(422);
		expect((await call(emu, 'PAUSE', '/solution/installation/5001')).status).toBe(422);
		expect(emu.state.installations.get(5001)!.status).toBe(1);
		const other = await call(emu, 'PAUSE', '/solution/installation/5003', {
			token: emu.token({ sub: 'user-2' }),
		});
		expect(other.status).toBe(200);
		expect(emu.requests.map((r) => r.fault)).toEqual([
			'status:422+customers:100%',
			'status:422+customers:100%',
			undefined,
		]);
		expect((await control('GET', 'faults')).data).toEqual([
			expect.objectContaining({ customers: { share: 1, solutionId: 101 }, regex: true }),
		]);
	});

	it("an install is the caller's (its token), a step write the installation's owner's", async () => {
		// Of two end users, the one the hash picks at share 0.5 with this seed.
		const [picked, spared] = ['user-1', 'user-2'].sort(
			(a, b) =>
				Number(isChosen({ share: 0.5, seed: 's' }, b)) -
				Number(isChosen({ share: 0.5, seed: 's' }, a)),
		);
		expect([
			isChosen({ share: 0.5, seed: 's' }, picked),
			isChosen({ share: 0.5, seed: 's' }, spared),
		]).toEqual([true, false]);
		const customers = { share: 0.5, seed: 's' };
		await control('POST', 'faults', {
			method: 'POST',
			path: '^/solution/\\d+/installation$',
			regex: true,
			status: 503,
			times: 9,
			customers,
		});
		const install = (sub: string) =>
			call(emu, 'POST', '/solution/101/installation', {
				token: emu.token({ sub }),
				body: {
					title: `Of ${sub}`,
					templateIds: [1011],
					credentialData: VALID_CREDENTIAL_DATA[101],
				},
			});
		expect((await install(picked)).status).toBe(503);
		expect((await install(spared)).status).toBe(201);
		await control('DELETE', 'faults');
		await control('POST', 'faults', {
			method: 'PUT',
			path: '^/bundle/data/\\d+$',
			regex: true,
			status: 422,
			times: 9,
			customers: { share: 1, solutionId: 102 },
		});
		// Step 9001 belongs to 5001 (solution 101), step 9007 to 5003 (solution 102, user-2).
		const put = (stepId: number, sub: string) =>
			call(emu, 'PUT', `/bundle/data/${stepId}`, {
				token: emu.token({ sub }),
				body: { fields: [] },
			});
		await put(9007, 'user-2');
		await put(9001, 'user-1');
		expect(emu.requests.slice(-2).map((r) => r.fault)).toEqual([
			'status:422+customers:100%',
			undefined,
		]);
	});

	it('a bad "customers" is refused naming it; reset clears the rules', async () => {
		const bad = await control('POST', 'faults', { path: '/x', customers: { share: 5 } });
		expect(bad.status).toBe(400);
		expect(bad.data.error).toBe('fault rule "customers.share" must be a number from 0 to 1');
		await control('POST', 'faults', { path: '/x', customers: { share: 1 } });
		emu.reset();
		expect(emu.faults.list()).toEqual([]);
	});
});
