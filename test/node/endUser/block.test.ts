/**
 * End User → Block: nothing is sent without the confirmation; with it block-user-plan
 * {id}, output {endUserId, blocked: true}, the user's installations paused; afterwards Installation
 * → Start and Create fail saying the user is blocked. Unknown users, the Access Token credential
 * and a missing End User ID are said so; both Basic styles and the answer variants work.
 */
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import {
	addUsers,
	partnerCredential,
	masterForm,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { byId, runNode } from '../../support/setup';
import { BASIC_STYLES, BLOCK_PATH, giveActiveInstallation } from './billingSetup';
import { callsTo } from './lifecycleSetup';

const ctx = usePartnerEmulator();
const block = (confirmBlock?: boolean) => ({
	resource: 'endUser',
	operation: 'block',
	...(confirmBlock === undefined ? {} : { confirmBlock }),
});
const start = { resource: 'installation', operation: 'start', installationId: byId('id', 5002) };

describe('End User → Block', () => {
	beforeEach(async () => {
		await addUsers(ctx.emu, ['john', 'mary']);
		giveActiveInstallation(ctx.emu, 'john');
	});

	it.each([
		['left at its default', undefined],
		['off', false],
	])(
		'with the confirmation %s: the item fails naming it and nothing is sent',
		async (_n, confirm) => {
			const run = await runPartner(ctx.emu, block(confirm), { inputItems: [{ customer: 'john' }] });
			expect(run.error?.message).toMatch(/Confirm: Block the User is off: end user "john"/);
			expect(run.error?.context?.itemIndex).toBe(0);
			expect(run.calls).toEqual([]);
			expect(ctx.emu.billing.isBlocked('john')).toBe(false);
			expect(ctx.emu.state.installations.get(5002)!.status).toBe(1);
		},
	);

	it('confirmed: sends {id}, outputs {endUserId, blocked: true}, the installations are paused', async () => {
		const run = await runPartner(ctx.emu, block(true), { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ endUserId: 'john', blocked: true }]);
		expect(run.calls).toEqual([`POST /wl/${ctx.emu.partner.name}/block-user-plan`]);
		expect(ctx.emu.requests.at(-1)!.body).toEqual({ id: 'john' });
		expect(ctx.emu.billing.isBlocked('john')).toBe(true);
		expect(ctx.emu.billing.isBlocked('mary')).toBe(false);
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(0);
	});

	it('a blocked user: Start fails saying the user is blocked; Create too; Pause still works', async () => {
		await runPartner(ctx.emu, block(true), { inputItems: [{ customer: 'john' }] });
		const started = await runPartner(ctx.emu, start, { inputItems: [{ customer: 'john' }] });
		expect(started.error?.message).toMatch(/blocked/i);
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(0);
		const created = await runPartner(
			ctx.emu,
			{
				resource: 'installation',
				operation: 'create',
				solutionId: byId('id', 102),
				title: 'After the block',
				connectionSettingsMode: 'json',
				credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
				templateIds: [1021],
			},
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(created.error?.message).toMatch(/blocked/i);
		const paused = await runPartner(
			ctx.emu,
			{ resource: 'installation', operation: 'pause', installationId: byId('id', 5002) },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(paused.error).toBeUndefined();
	});

	it('Set Plan lifts the block where the service does so (the emulator default): Start works again', async () => {
		await runPartner(ctx.emu, block(true), { inputItems: [{ customer: 'john' }] });
		const plan = await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'setPlan', planId: 23 },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(plan.error).toBeUndefined();
		expect(ctx.emu.state.installations.get(5002)!.status).toBe(0);
		const started = await runPartner(ctx.emu, start, { inputItems: [{ customer: 'john' }] });
		expect(started.error).toBeUndefined();
		expect(started.json[0].status).toBe(1);
	});

	it('where Set Plan does not lift it (variant setPlanUnblocks: no), Start still fails as blocked', async () => {
		ctx.emu.setVariants({ setPlanUnblocks: 'no' });
		await runPartner(ctx.emu, block(true), { inputItems: [{ customer: 'john' }] });
		await runPartner(
			ctx.emu,
			{ resource: 'endUser', operation: 'setPlan', planId: 23 },
			{ inputItems: [{ customer: 'john' }] },
		);
		const started = await runPartner(ctx.emu, start, { inputItems: [{ customer: 'john' }] });
		expect(started.error?.message).toMatch(/blocked/i);
	});

	it('an unknown user is reported as such', async () => {
		const run = await runPartner(ctx.emu, block(true), { inputItems: [{ customer: 'nobody' }] });
		expect(run.error?.message).toBe('End user "nobody" does not exist: nothing was blocked');
		expect(run.error?.context?.itemIndex).toBe(0);
	});

	it('a missing End User ID is refused before any request, naming it and the item', async () => {
		const run = await runPartner(ctx.emu, block(true), {
			inputItems: [{ customer: 'john' }, { customer: '' }],
		});
		expect(run.error?.message).toMatch(/End User ID/);
		expect(run.error?.context?.itemIndex).toBe(1);
		expect(callsTo(run, BLOCK_PATH)).toBeLessThanOrEqual(1);
		expect(ctx.emu.requests.every((r) => (r.body as { id?: string })?.id !== '')).toBe(true);
	});

	it.each(BASIC_STYLES)('master token as %s', async (_name, style) => {
		ctx.emu.partner.set({ acceptStyles: style });
		const run = await runPartner(ctx.emu, block(true), {
			inputItems: [{ customer: 'john' }],
			credential: partnerCredential(ctx.emu, { headerForm: masterForm(style) }),
		});
		expect(run.error).toBeUndefined();
		expect(ctx.emu.billing.isBlocked('john')).toBe(true);
	});

	it.each([
		['bare bodies', { bare: true }],
		['success as a string', { successFlag: 'string' as const }],
		['success as a number', { successFlag: 'number' as const }],
	])('answer variant: %s', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runPartner(ctx.emu, block(true), { inputItems: [{ customer: 'john' }] });
		expect(run.error).toBeUndefined();
		expect(run.json).toEqual([{ endUserId: 'john', blocked: true }]);
	});

	it('a lost answer is not repeated (a POST): reported as unknown', async () => {
		ctx.emu.faults.add({ method: 'POST', path: BLOCK_PATH, reset: 'after', times: 1 });
		const run = await runPartner(
			ctx.emu,
			{ ...block(true), requestOptions: { timeout: 2 } },
			{ inputItems: [{ customer: 'john' }] },
		);
		expect(run.error).toBeDefined();
		expect(callsTo(run, BLOCK_PATH)).toBe(1);
	});

	it('with the Access Token credential: a clear message, nothing sent', async () => {
		const run = await runNode(ctx.emu, block(true));
		expect(run.error?.message).toMatch(/End User needs the Albato Partner API credential/);
		expect(run.calls).toEqual([]);
	});
});

describe('what the editor says about Block', () => {
	it("points to the one home of the gap (the docs' Billing section), with no README path the editor cannot open", () => {
		const texts = JSON.stringify(new AlbatoSolutions().description.properties);
		expect(texts).not.toMatch(/README/);
		const confirm = new AlbatoSolutions().description.properties.find(
			(p) => p.name === 'confirmBlock',
		)!;
		expect(confirm.description).toContain(
			"pauses all of their integrations and no new ones can start, and is irreversible from n8n: see the docs' Billing section.",
		);
	});
});
