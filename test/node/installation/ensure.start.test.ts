/**
 * Installation → Ensure reports "active" only when the installation is: a PLAY the service answers
 * with the installation still paused fails the item (it is never left paused without a word).
 */
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

/** Ensure of fixture 5002 ("Leads for Globex", solution 101, paused), desired active. */
const startGlobex = {
	resource: 'installation',
	operation: 'ensure',
	solutionId: byId('id', 101),
	title: 'Leads for Globex',
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011],
	desiredStatus: 'active',
};

describe('Installation → Ensure, desired status active', () => {
	it('a PLAY answered with the installation still paused is a failure, never "active"', async () => {
		ctx.emu.faults.add({ method: 'PLAY', path: '/solution/installation/5002', answerAsGet: true });
		const run = await runNode(ctx.emu, startGlobex);
		expect(run.error?.message).toBe(
			'Installation 5002 is still paused: the service answered PLAY but did not start it',
		);
		expect(run.calls.filter((call) => call.startsWith('PLAY'))).toEqual([
			'PLAY /solution/installation/5002',
		]);
		expect(ctx.emu.state.installations.get(5002)?.status).toBe(0);
	});

	it('a PLAY that starts it: active', async () => {
		const run = await runNode(ctx.emu, startGlobex);
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({
			created: false,
			changed: { status: { from: 0, to: 1 } },
		});
		expect(ctx.emu.state.installations.get(5002)?.status).toBe(1);
	});
});
