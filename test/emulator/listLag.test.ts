/** List lag: a new installation is missing from GET /solution/installation for N reads or T ms. */
import { startEmulator, type Emulator } from '../../emulator';
import { FIXTURE_IDS, VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { call } from './helpers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const install = () =>
	call(emu, 'POST', '/solution/101/installation', {
		body: { title: 'Lagging', templateIds: [1011], credentialData: VALID_CREDENTIAL_DATA[101] },
	});
const listedIds = async () =>
	((await call(emu, 'GET', '/solution/installation')).data.data as Array<{ id: number }>).map(
		(i) => i.id,
	);
const created = FIXTURE_IDS.nextInstallation;

describe('list lag', () => {
	it('reads: the new installation is missing from the next N list calls, then listed; its detail is there at once', async () => {
		emu.setListLag({ reads: 2 });
		expect((await install()).status).toBe(201);
		expect(await listedIds()).not.toContain(created);
		expect((await call(emu, 'GET', `/solution/installation/${created}`)).status).toBe(200);
		expect(await listedIds()).not.toContain(created);
		expect(await listedIds()).toContain(created);
	});

	it('ms: missing until the time has passed; installations that existed before are always listed', async () => {
		emu.setListLag({ ms: 300 });
		await install();
		const early = await listedIds();
		expect(early).not.toContain(created);
		expect(early).toContain(5001);
		await new Promise((resolve) => setTimeout(resolve, 350));
		expect(await listedIds()).toContain(created);
	});

	it('is set through the control surface, rejects unknown settings, and reset clears it', async () => {
		expect((await call(emu, 'POST', '/__emulator/list-lag', { body: { reads: 1 } })).data).toEqual({
			listLag: { reads: 1 },
		});
		expect((await call(emu, 'POST', '/__emulator/list-lag', { body: { days: 1 } })).status).toBe(
			400,
		);
		emu.reset();
		await install();
		expect(await listedIds()).toContain(created);
	});
});
