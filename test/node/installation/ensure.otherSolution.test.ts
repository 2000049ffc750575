/**
 * Installation → Ensure's key is solution and title: the same title under another solution is
 * another installation. Ensure installs its own, and never adopts, changes or pauses the other
 * solution's one (Create's Refuse Duplicate Title still counts every title of the end user).
 */
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

// Fixture: user-1's installation 5001 is solution 101's "Leads for ACME", active.
const TITLE = 'Leads for ACME';

const ensure102 = {
	resource: 'installation',
	operation: 'ensure',
	solutionId: byId('id', 102),
	title: TITLE,
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
	templateIds: [1021],
	desiredStatus: 'active',
	options: { lostAnswerCheck: 0.5 },
};

const titled = () =>
	[...ctx.emu.state.installations.values()]
		.filter((installation) => installation.title === TITLE)
		.map((installation) => [installation.id, installation.solutionId, installation.status]);

describe('Installation → Ensure: the same title under another solution', () => {
	it("installs its own and leaves the other solution's installation untouched; again, it converges its own", async () => {
		const first = await runNode(ctx.emu, ensure102);
		expect(first.error).toBeUndefined();
		expect(first.json[0]).toMatchObject({ created: true });
		const ours = Number((first.json[0].installation as { id: unknown }).id);
		expect(ours).not.toBe(5001);
		expect(titled()).toEqual([
			[5001, 101, 1],
			[ours, 102, 1],
		]);
		expect(first.calls.filter((call) => call.includes('5001'))).toEqual([]);

		const again = await runNode(ctx.emu, ensure102);
		expect(again.error).toBeUndefined();
		expect(again.json[0]).toMatchObject({ created: false });
		expect((again.json[0].installation as { id: unknown }).id).toBe(ours);
		expect(again.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
		expect(titled()).toHaveLength(2);
	});

	it('an install of unknown outcome under another solution does not hold up its own title', async () => {
		const lost = 'Lost Co';
		ctx.emu.faults.add({ method: 'POST', path: '/solution/101/installation', status: 503 });
		const create101 = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'create',
			solutionId: byId('id', 101),
			title: lost,
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
			templateIds: [1011],
			options: { refuseDuplicateTitle: true, lostAnswerCheck: 0.5 },
		});
		expect(create101.error?.message).toMatch(/outcome of installing "Lost Co" is unknown/);

		const ensure = (solutionId: number, templateIds: number[]) =>
			runNode(ctx.emu, {
				...ensure102,
				solutionId: byId('id', solutionId),
				title: lost,
				credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[solutionId]),
				templateIds,
			});
		// The same solution: the earlier install may still appear, so Ensure waits for it.
		const same = await ensure(101, [1011]);
		expect(same.error?.message).toBe(
			'An earlier install of "Lost Co" has an unknown outcome: it may exist but not be listed yet',
		);
		expect(same.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
		// Another solution: its own installation, at once.
		const other = await ensure(102, [1021]);
		expect(other.error).toBeUndefined();
		expect(other.json[0]).toMatchObject({ created: true });
		expect(
			[...ctx.emu.state.installations.values()]
				.filter((installation) => installation.title === lost)
				.map((installation) => installation.solutionId),
		).toEqual([102]);
	});

	it("Create's Refuse Duplicate Title still refuses a title the end user has under any solution", async () => {
		const run = await runNode(ctx.emu, {
			resource: 'installation',
			operation: 'create',
			solutionId: byId('id', 102),
			title: TITLE,
			connectionSettingsMode: 'json',
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
			templateIds: [1021],
			options: { refuseDuplicateTitle: true },
		});
		expect(run.error?.message).toBe(`An installation titled "${TITLE}" already exists (ID 5001)`);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
		expect(titled()).toEqual([[5001, 101, 1]]);
	});
});
