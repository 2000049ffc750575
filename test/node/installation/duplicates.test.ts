/**
 * Duplicates contained across processes: two workers (separate copies of the node, so no shared
 * in-process lock) install the same title for the same end user at the same moment, while the list
 * lags behind the POST. Only the oldest stays running; the younger one is paused by the worker that
 * created it and reported as a failed item (the error output) with `details.duplicateOf`. No worker
 * pauses what it did not create.
 */
import { startEmulator, type Emulator } from '../../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, installParams } from '../../support/setup';
import { runOn, separateWorker } from './workers';

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0, initialStatus: 1 }); // installs start active: the risky case
});
afterAll(async () => await emu.close());
beforeEach(() => emu.reset());

const create = (title: string, lostAnswerCheck = 1) =>
	installParams(title, {
		options: { refuseDuplicateTitle: true, lostAnswerCheck },
		requestOptions: { maxRetries: 0 },
	});
const titled = (title: string) =>
	[...emu.state.installations.values()]
		.filter((i) => i.title === title)
		.sort((a, b) => a.id - b.id);
const pausesOf = (id: number) =>
	emu.requests.filter((r) => r.method === 'PAUSE' && r.path === `/solution/installation/${id}`);

describe('Create + Refuse Duplicate Title, two workers at once', () => {
	it.each([
		['a list that lags 2 reads', { reads: 2 }],
		['a list that lags 400 ms', { ms: 400 }],
	])(
		'%s: both install, the younger is paused and reported, the older stays active',
		async (_l, lag) => {
			emu.setListLag(lag);
			const [a, b] = [separateWorker(), separateWorker()];
			const runs = await Promise.all([
				runOn(a, emu, create('Acme – CRM sync')),
				runOn(b, emu, create('Acme – CRM sync')),
			]);
			const [older, younger] = titled('Acme – CRM sync');
			expect(titled('Acme – CRM sync')).toHaveLength(2); // the race really happened
			expect(older.status).toBe(1);
			expect(younger.status).toBe(0);
			expect(pausesOf(older.id)).toHaveLength(0);
			expect(pausesOf(younger.id)).toHaveLength(1);

			const failed = runs.flatMap((run) => run.failed);
			const succeeded = runs.flatMap((run) => run.success);
			expect(succeeded.map((json) => json.id)).toEqual([older.id]);
			expect(failed).toHaveLength(1);
			expect(failed[0]).toMatchObject({
				error: `Installation ${younger.id} duplicates installation ${older.id} ("Acme – CRM sync"): it was installed by this item at the same time as another execution installed ${older.id}, and is paused`,
				details: { duplicateOf: older.id, installationId: younger.id, paused: true },
			});
			expect(String(failed[0].message)).toMatch(
				new RegExp(`Installation ${older.id} is the older one`),
			);
		},
	);

	it('the older one reads the younger one and leaves it alone (never pauses what it did not create)', async () => {
		// The first run's 4 reads after installing, then the second's check before installing, miss it.
		emu.setListLag({ reads: 5 });
		const first = await runOn(separateWorker(), emu, create('Only mine', 0.5));
		const second = await runOn(separateWorker(), emu, create('Only mine', 0.5));
		const [older, younger] = titled('Only mine');
		expect(first.success.map((json) => json.id)).toEqual([older.id]);
		expect(second.failed[0]).toMatchObject({ details: { duplicateOf: older.id } });
		expect(pausesOf(older.id)).toHaveLength(0);
		expect(younger.status).toBe(0);
	});

	it('when the pause itself fails, the duplicate is still reported, saying it may be running', async () => {
		emu.setListLag({ reads: 5 }); // the first run's 4 reads, then the second's check before installing
		await runOn(separateWorker(), emu, create('Pause fails', 0.5));
		emu.faults.add({
			method: 'PAUSE',
			path: /^\/solution\/installation\/\d+$/,
			status: 422,
			times: 1,
		});
		const second = await runOn(separateWorker(), emu, create('Pause fails', 0.5));
		const [older, younger] = titled('Pause fails');
		expect(second.failed[0]).toMatchObject({
			details: { duplicateOf: older.id, installationId: younger.id, paused: false },
		});
		expect(String(second.failed[0].error)).toMatch(/could not be paused/);
		expect(String(second.failed[0].message)).toMatch(/pause it with Installation → Pause/);
	});

	it('no second installation in one process: the refusal holds (no containment needed)', async () => {
		emu.setListLag({ reads: 10 });
		const worker = separateWorker();
		const runs = await Promise.all([
			runOn(worker, emu, create('One process', 0.5)),
			runOn(worker, emu, create('One process', 0.5)),
		]);
		expect(titled('One process')).toHaveLength(1);
		expect(runs.flatMap((run) => run.failed.map((json) => json.error))).toEqual([
			`An installation titled "One process" already exists (ID ${titled('One process')[0].id})`,
		]);
	});

	it('without Refuse Duplicate Title nothing is re-read or paused (duplicates are then what was asked)', async () => {
		const plain = installParams('Wanted twice', { requestOptions: { maxRetries: 0 } });
		await Promise.all([runOn(separateWorker(), emu, plain), runOn(separateWorker(), emu, plain)]);
		expect(titled('Wanted twice').map((i) => i.status)).toEqual([1, 1]);
		expect(emu.requests.filter((r) => r.method === 'PAUSE')).toHaveLength(0);
	});
});

describe('Installation → Ensure, two workers at once', () => {
	const ensure = (title: string) => ({
		resource: 'installation',
		operation: 'ensure',
		solutionId: byId('id', 102),
		title,
		connectionSettingsMode: 'json',
		credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
		templateIds: [1021],
		desiredStatus: 'active',
		options: { lostAnswerCheck: 1 },
		requestOptions: { maxRetries: 0 },
	});

	it('a lagging list: one stays active, the younger is paused and reported, never started', async () => {
		emu.setListLag({ reads: 2 });
		const runs = await Promise.all([
			runOn(separateWorker(), emu, ensure('Onboarded')),
			runOn(separateWorker(), emu, ensure('Onboarded')),
		]);
		const [older, younger] = titled('Onboarded');
		expect(titled('Onboarded')).toHaveLength(2); // the race really happened
		expect([older.status, younger.status]).toEqual([1, 0]);
		const plays = emu.requests.filter((r) => r.method === 'PLAY');
		expect(plays.map((r) => r.path)).not.toContain(`/solution/installation/${younger.id}`);
		const succeeded = runs.flatMap((run) => run.success);
		expect(succeeded).toHaveLength(1);
		expect(succeeded[0]).toMatchObject({
			installation: { id: older.id, status: 1 },
			created: true,
		});
		expect(runs.flatMap((run) => run.failed)).toEqual([
			expect.objectContaining({
				details: { duplicateOf: older.id, installationId: younger.id, paused: true },
			}),
		]);
		// Running the younger's Ensure again converges on the older one.
		const again = await runOn(separateWorker(), emu, ensure('Onboarded'));
		expect(again.success[0]).toMatchObject({
			installation: { id: older.id },
			created: false,
			unchanged: true,
		});
	});
});
