/**
 * The emulator counts each moment a customer gets two active copies of one installation (same
 * title, any solution): at PLAY, or at an install when installs start active. Read in tests through
 * `emu.state.activeCopies`, and over HTTP in fleet/status's `bothActive`; reset clears it.
 */
import axios from 'axios';

import { startEmulator, type Emulator } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());
beforeEach(() => emu.reset());

const install = async (solutionId: number, title: string, templateIds: number[]) =>
	(
		await call(emu, 'POST', `/solution/${solutionId}/installation`, {
			body: { title, templateIds, credentialData: VALID_CREDENTIAL_DATA[101] },
		})
	).data.data.id as number;

it('counts a PLAY that makes a second copy active (another solution too), not one that does not', async () => {
	await call(emu, 'PLAY', '/solution/installation/5002'); // "Leads for Globex": alone
	expect(emu.state.activeCopies.summary()).toEqual({ events: 0, customers: 0, copies: [] });
	const next = await install(105, 'Leads for ACME', [1051]); // 5001 "Leads for ACME" is active
	expect(emu.state.activeCopies.events).toBe(0); // installed paused
	await call(emu, 'PLAY', `/solution/installation/${next}`);
	await call(emu, 'PLAY', `/solution/installation/${next}`); // already active: no change, no count
	expect(emu.state.activeCopies.summary()).toEqual({
		events: 1,
		customers: 1,
		copies: [{ userId: 'user-1', title: 'Leads for ACME' }],
	});
	await call(emu, 'PAUSE', '/solution/installation/5001');
	await call(emu, 'PAUSE', `/solution/installation/${next}`);
	await call(emu, 'PLAY', '/solution/installation/5001'); // one at a time: no count
	expect(emu.state.activeCopies.events).toBe(1);
	emu.reset();
	expect(emu.state.activeCopies.events).toBe(0);
});

it('counts an install that starts active beside an active copy, and fleet/status reports it', async () => {
	const active = await startEmulator({ port: 0, initialStatus: 1 });
	try {
		await call(active, 'POST', '/solution/101/installation', {
			body: {
				title: 'Leads for ACME',
				templateIds: [1011],
				credentialData: VALID_CREDENTIAL_DATA[101],
			},
		});
		const status = await axios.post(`${active.baseUrl}/__emulator/fleet/status`, {
			idPrefix: 'nobody-',
		});
		expect(status.data.bothActive).toEqual({
			events: 1,
			customers: 1,
			copies: [{ userId: 'user-1', title: 'Leads for ACME' }],
		});
	} finally {
		await active.close();
	}
});
