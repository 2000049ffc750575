/**
 * Installation → Upgrade and twins: copies of one customer's installation that a race left active
 * (same solution and title). The upgrade keeps the oldest of each solution, pauses every other
 * active copy (kept, never deleted) and reports each on the error output, before it switches; two
 * workers upgrading one customer at once end with one active copy of the new solution.
 */
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, runNode, useEmulator } from '../../support/setup';
import { activeCopies, upgradeParams } from './upgradeSupport';
import { runOn, separateWorker } from './workers';

const ctx = useEmulator();
const OLD = 5001;
const TITLE = 'Leads for ACME';

/** A second active copy of 5001 (solution 101, same title), as a race would leave it. */
async function oldTwin(): Promise<number> {
	const created = await runNode(ctx.emu, {
		resource: 'installation',
		operation: 'create',
		solutionId: byId('id', 101),
		title: TITLE,
		connectionSettingsMode: 'json',
		credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
		templateIds: [1011],
	});
	const id = created.json[0].id as number;
	ctx.emu.state.installations.get(id)!.status = 1;
	return id;
}

describe('Installation → Upgrade, twins', () => {
	it.each([4, 3])(
		'node version %s: an active twin of the old one is paused first, kept, reported; the oldest is upgraded',
		async (typeVersion) => {
			const twin = await oldTwin();
			const run = await runNode(ctx.emu, upgradeParams(), {
				continueOnFail: true,
				extra: { typeVersion },
			});
			const [output, report] = run.json;
			expect(output).toMatchObject({
				state: 'upgraded',
				oldInstallation: { id: OLD, status: 0 },
				duplicates: [{ duplicateOf: OLD, installationId: twin, paused: true }],
			});
			expect(report).toMatchObject({
				error: `Installation ${twin} duplicates installation ${OLD} ("${TITLE}"): it is now paused`,
			});
			expect(run.calls.indexOf(`PAUSE /solution/installation/${twin}`)).toBeLessThan(
				run.calls.indexOf('POST /solution/105/installation'),
			);
			expect(ctx.emu.state.installations.get(twin)?.status).toBe(0);
			expect(activeCopies(ctx.emu, TITLE)).toEqual([(output.newInstallation as { id: number }).id]);
			expect(ctx.emu.state.installations.has(twin)).toBe(true); // kept
		},
	);

	it('in Preview the twin is reported as it would be paused, and nothing is written', async () => {
		const twin = await oldTwin();
		const run = await runNode(ctx.emu, upgradeParams({ requestOptions: { preview: true } }), {
			continueOnFail: true,
		});
		expect(run.calls.filter((call) => !call.startsWith('GET'))).toEqual([]);
		expect(run.json[0]).toMatchObject({
			duplicates: [{ installationId: twin, paused: true, preview: true }],
		});
		expect(activeCopies(ctx.emu, TITLE)).toEqual([OLD, twin]);
	});

	it('two workers upgrade one customer at once, the list lagging: one new copy active, the other paused and reported', async () => {
		ctx.emu.setListLag({ reads: 2 });
		const params = upgradeParams({ options: { lostAnswerCheck: 1 } });
		const runs = await Promise.all([
			runOn(separateWorker(), ctx.emu, params),
			runOn(separateWorker(), ctx.emu, params),
		]);
		const copies = [...ctx.emu.state.installations.values()]
			.filter((i) => i.solutionId === 105 && i.title === TITLE)
			.map((i) => i.id)
			.sort();
		expect(copies).toHaveLength(2); // the race really happened
		expect(activeCopies(ctx.emu, TITLE)).toEqual([copies[0]]);
		expect(runs.flatMap((run) => run.success.map((json) => json.state))).toEqual([
			'upgraded',
			'upgraded',
		]);
		expect(runs.flatMap((run) => run.failed)).toEqual([
			expect.objectContaining({
				details: { duplicateOf: copies[0], installationId: copies[1], paused: true },
			}),
		]);
		const again = await runNode(ctx.emu, upgradeParams());
		expect(again.json[0]).toMatchObject({ state: 'alreadyUpgraded' });
		expect(again.json[0].duplicates).toBeUndefined();
	});
});
