/**
 * What the pickers say in the editor (issue 33): an end user with no installation (point 9), an End
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

describe('picker errors keep the End User ID whole', () => {
	it('an unknown end user: hyphens survive the locator view; the description holds it as typed', async () => {
		const error = (await searchInstallations
			.call(picker('cust-alpah'))
			.catch((e: unknown) => e)) as Shown;
		expect(error.message).toContain('cust\u2011alpah');
		expect(asTheLocatorShowsIt(error.message)).toContain('cust\u2011alpah');
		expect(asTheLocatorShowsIt(error.message)).not.toContain('cust alpah');
		expect(error.description).toMatch(/^End User ID: "cust-alpah"\. /);
	});
});

describe('option lists reload once End User ID resolves', () => {
	it('every options picker that calls the service as the end user depends on End User ID', () => {
		const dependsOn: Array<[string, string[]]> = [];
		const walk = (properties: INodeProperties[]) => {
			for (const property of properties) {
				const options = property.typeOptions;
				// The plan picker reads the partner's plans with the master token: no end user involved.
				if (options?.loadOptionsMethod && options.loadOptionsMethod !== 'getPlans')
					dependsOn.push([property.name, options.loadOptionsDependsOn ?? []]);
				const nested = (property.options ?? []) as Array<{ values?: INodeProperties[] }>;
				for (const entry of nested) if (entry.values) walk(entry.values);
			}
		};
		walk(new AlbatoSolutions().description.properties);
		expect(dependsOn.length).toBeGreaterThanOrEqual(5);
		for (const [name, on] of dependsOn)
			expect([name, on]).toEqual([name, expect.arrayContaining(['endUserId'])]);
	});
});
