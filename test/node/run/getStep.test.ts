/**
 * Run → Get Step: one step's detail, as the service gives it (its date also as ISO), in every
 * variant.
 */
import { FIXTURE_RUN_IDS } from '../../../emulator/handlers/runs';
import { runNode, useEmulator } from '../../support/setup';
import { RUN_VARIANTS } from './variants';

const ctx = useEmulator();

const failingStep = () => {
	const run = ctx.emu.runs().find((r) => r.id === FIXTURE_RUN_IDS.user1Failed)!;
	return run.steps.flat().find((s) => s.error !== null)!;
};

describe('Run → Get Step', () => {
	it.each(RUN_VARIANTS)('reads the step detail (%s)', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const step = failingStep();
		const run = await runNode(ctx.emu, {
			resource: 'run',
			operation: 'getStep',
			runStepId: String(step.id),
		});
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([`GET /bundle/events/steps/${step.id}`]);
		expect(run.json[0]).toMatchObject({
			id: step.id,
			eventId: FIXTURE_RUN_IDS.user1Failed,
			bundleId: 7001,
			error: 'Emulated step error',
			stepLevel: 2,
			dateCreated: '2024-05-01T11:00:00.000Z',
		});
	});

	it("another user's step is reported as not found", async () => {
		const other = ctx.emu.runs().find((r) => r.id === FIXTURE_RUN_IDS.user2Failed)!.steps[0][0];
		const run = await runNode(ctx.emu, {
			resource: 'run',
			operation: 'getStep',
			runStepId: String(other.id),
		});
		expect(run.error?.message).toMatch(/not found/i);
	});

	it.each([
		['text', 'abc'],
		['negative', '-5'],
		['zero', '0'],
	])('a %s Step ID is refused before any request', async (_n, stepId) => {
		const run = await runNode(ctx.emu, {
			resource: 'run',
			operation: 'getStep',
			runStepId: stepId,
		});
		expect(run.error?.message).toMatch(/Step ID must be a positive whole number/);
		expect(run.calls).toEqual([]);
	});
});
