/**
 * What the pickers say in the editor: an end user with no installation (point 9), an End
 * User ID with hyphens kept whole in n8n's locator error view (point 12), and the option lists that
 * reload once End User ID resolves (point 6).
 */
import type { INodeProperties } from 'n8n-workflow';

import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { loadOptionsContext } from '../../harness';
import { addUsers, partnerCredential, usePartnerEmulator } from '../support/partnerSetup';

const ctx = usePartnerEmulator();

const picker = (endUserId: string) =>
	loadOptionsContext({
		nodeType: new AlbatoSolutions(),
		parameters: {
			authentication: 'partnerApi',
			endUserId,
			resource: 'installation',
			operation: 'get',
		},
		credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
	});

const { searchInstallations } = new AlbatoSolutions().methods.listSearch;

type Shown = Error & { description?: string };

/** What n8n 2.41's locator error view does to a message: split at dashes, parts joined by spaces. */
const asTheLocatorShowsIt = (message: string) =>
	/[-–—]/.test(message) ? message.split(/\s*[-–—]\s*/).join(' ') : message;

describe('Installation picker', () => {
	it('an end user with no installations: says so, naming the End User ID as typed', async () => {
		await addUsers(ctx.emu, ['new-customer-1']);
		const error = (await searchInstallations
			.call(picker('new-customer-1'))
			.catch((e: unknown) => e)) as Shown;
		expect(error.message).toBe('This end user has no installations yet');
		expect(error.description).toContain('End User ID: "new-customer-1"');
		expect(error.description).toMatch(/Installation → Create or Ensure/);
	});

	it('a search that matches nothing is an empty list (n8n says "No results")', async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.state.installations.get(5001)!.userId = `${ctx.emu.partner.name}:c-1`;
		const found = await searchInstallations.call(picker('c-1'), 'no such title');
		expect(found.results).toEqual([]);
	});
});

describe('picker errors show the End User ID once, with plain hyphens', () => {
	it('an unknown end user: no "404 - ", the ID whole in the description, the message pointing to it', async () => {
		const error = (await searchInstallations
			.call(picker('cust-alpah'))
			.catch((e: unknown) => e)) as Shown;
		const shown = `${asTheLocatorShowsIt(error.message)} ${error.description}`;
		expect(asTheLocatorShowsIt(error.message)).toBe(
			'Could not load the installations: End user with id (the End User ID below) not found',
		);
		// Once, as typed: the description is shown whole (no split at its hyphens).
		expect(shown.match(/cust.alpah/g)).toEqual(['cust-alpah']);
		expect(error.description).toMatch(
			/^End User ID: "cust-alpah"\. POST \/wl\/acme-saas\/get-user-session-token → 404\. /,
		);
		// No "404 - " before the message in n8n's locator view: no httpCode on a picker error.
		expect((error as Shown & { httpCode?: string | null }).httpCode ?? null).toBeNull();
	});

	it("the list says whose installations it shows (End User ID per item: the first item's)", async () => {
		await addUsers(ctx.emu, ['c-1']);
		ctx.emu.state.installations.get(5001)!.userId = `${ctx.emu.partner.name}:c-1`;
		const { results } = await searchInstallations.call(picker('c-1'));
		expect(results.length).toBeGreaterThan(0);
		for (const entry of results)
			expect(entry.description).toBe(
				'An installation of end user "c-1" (for an expression in End User ID: the first item\'s)',
			);
		const locator = new AlbatoSolutions().description.properties.find(
			(p) => p.name === 'installationId',
		)!;
		expect(locator.description).toMatch(
			/End User ID per item \(an expression\), the list shows the first item's end user's installations; each item acts as its own end user/,
		);
	});
});

// n8n's editor resolves the parameters an option list depends on (loadOptionsDependsOn) as required:
// an expression it cannot resolve there (End User ID = {{ $json.customerId }} after a reload) fails
// in the editor with n8n's own "Node '…' hasn't been executed", before the list is asked. Any other
// parameter that cannot be resolved arrives as null, and the package's advice is shown instead.
describe("option lists: End User ID never required, so the advice is the package's", () => {
	const dependsOn: Array<[string, string[]]> = [];
	const walk = (properties: INodeProperties[]) => {
		for (const property of properties) {
			const options = property.typeOptions;
			if (options?.loadOptionsMethod)
				dependsOn.push([property.name, options.loadOptionsDependsOn ?? []]);
			const nested = (property.options ?? []) as Array<{ values?: INodeProperties[] }>;
			for (const entry of nested) if (entry.values) walk(entry.values);
		}
	};
	walk(new AlbatoSolutions().description.properties);

	it('no option list depends on End User ID', () => {
		expect(dependsOn.length).toBeGreaterThanOrEqual(5);
		for (const [name, on] of dependsOn)
			expect([name, on.includes('endUserId')]).toEqual([name, false]);
	});

	it('End User ID unresolved (null, as the editor sends it): the list says what to do, and to reopen', async () => {
		const context = loadOptionsContext({
			nodeType: new AlbatoSolutions(),
			parameters: {
				authentication: 'partnerApi',
				endUserId: null as unknown as string,
				resource: 'installation',
				operation: 'create',
				solutionId: { __rl: true, mode: 'id', value: '101' },
			},
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
		});
		const error = (await new AlbatoSolutions().methods.loadOptions.getTemplates
			.call(context)
			.catch((e: unknown) => e)) as Shown;
		expect(error.message).toMatch(/^End User ID has no value here .*close and reopen this node\.$/);
	});
});

describe('a saved value whose list cannot load shows as itself', () => {
	const ensure = (endUserId: unknown, entry: Record<string, unknown>, extra = {}) =>
		loadOptionsContext({
			nodeType: new AlbatoSolutions(),
			parameters: {
				authentication: 'partnerApi',
				endUserId: endUserId as string,
				resource: 'installation',
				operation: 'ensure',
				solutionId: { __rl: true, mode: 'id', value: '101' },
				title: 'CRM Leads to Mailer',
				templateIds: [1011],
				desiredFields: { field: [{ automation: '', step: '', code: '', value: '', ...entry }] },
				...extra,
			},
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
			path: 'parameters.desiredFields.field[0].code',
		});
	const { loadOptions } = new AlbatoSolutions().methods;
	const saved = { automation: 1011, step: 'Send welcome email', code: 'subject' };

	it('Template Names, Automation, Step and Field keep "ID 1011", the title and the code, with the reason', async () => {
		const context = ensure(null, saved);
		const shown = {
			templateIds: await loadOptions.getTemplates.call(context),
			automation: await loadOptions.getEnsureTemplates.call(context),
			step: await loadOptions.getEnsureSteps.call(context),
			code: await loadOptions.getEnsureFields.call(context),
		};
		expect(
			Object.fromEntries(
				Object.entries(shown).map(([name, options]) => [
					name,
					options.map(({ name: label, value }) => [label, value]),
				]),
			),
		).toEqual({
			templateIds: [['ID 1011 (saved; list not loaded)', 1011]],
			automation: [['ID 1011 (saved; list not loaded)', 1011]],
			step: [['Send welcome email (saved; list not loaded)', 'Send welcome email']],
			code: [['subject (saved; list not loaded)', 'subject']],
		});
		expect(shown.step[0].description).toMatch(
			/^The list could not load: End User ID has no value here .*\. The saved value is kept as it is\.$/,
		);
	});

	it('with nothing saved, the advice is the error (n8n shows its message)', async () => {
		await expect(
			loadOptions.getTemplates.call(ensure(null, {}, { templateIds: [] })),
		).rejects.toThrow(/^End User ID has no value here/);
	});

	it('a first onboarding (no installation of the solution yet): says what to type, and where', async () => {
		await addUsers(ctx.emu, ['first-customer']);
		await expect(
			loadOptions.getEnsureSteps.call(
				ensure(
					'first-customer',
					{ automation: 1021 },
					{ solutionId: { __rl: true, mode: 'id', value: '102' } },
				),
			),
		).rejects.toThrow(
			"No installation of solution 102 has automation 1021 yet, so its steps and fields cannot be listed (Albato shows them only in an installation). Type them instead: switch Step to Expression and type the step's title as your automation in Albato names it, and Field to Expression and type the field's label as the step shows it (or its code).",
		);
	});
});
