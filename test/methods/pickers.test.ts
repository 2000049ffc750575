/**
 * The listSearch and loadOptions pickers (solutions, installations, templates, bundles, steps)
 * through n8n-core's LoadOptionsContext against the emulator.
 */
import type { INodeListSearchResult, INodePropertyOptions } from 'n8n-workflow';

import { byId } from '../support/setup';
import { PARENTS, usePickers } from '../support/methodsSetup';

const pickers = usePickers();
const search = (method: string, parameters: object, filter?: string, token?: string) =>
	pickers.call<INodeListSearchResult>('listSearch', method, parameters as never, {
		filter,
		credential: token ? { baseUrl: pickers.emu.baseUrl, accessToken: token } : undefined,
	});
const options = (method: string, parameters: object) =>
	pickers.call<INodePropertyOptions[]>('loadOptions', method, parameters as never);

describe('searchSolutions (Solution locator, From List)', () => {
	it('lists the latest published version of each solution: title shown, id as the value; one request', async () => {
		const { result, calls, requests } = await search('searchSolutions', PARENTS.searchSolutions);
		expect(result).toEqual({
			results: [
				{ name: 'CRM Leads to Mailer (101)', value: '101' },
				{ name: 'Shop Orders to Sheets (102)', value: '102' },
				{ name: 'Support Tickets to Chat (103)', value: '103' },
				{ name: 'CRM Leads to Mailer 2 (105)', value: '105' },
			],
		});
		expect(calls).toEqual(['GET /solution/apps']);
		expect(requests[0].user).toBe('user-1');
	});

	it('filters by title, case-insensitively, or by exact id, still with one request', async () => {
		const byTitle = await search('searchSolutions', PARENTS.searchSolutions, '  SHEETS ');
		expect(byTitle.result.results).toEqual([{ name: 'Shop Orders to Sheets (102)', value: '102' }]);
		expect(byTitle.calls).toEqual(['GET /solution/apps']);

		const byIdText = await search('searchSolutions', PARENTS.searchSolutions, '103');
		expect(byIdText.result.results.map((entry) => entry.value)).toEqual(['103']);

		const none = await search('searchSolutions', PARENTS.searchSolutions, 'no such solution');
		expect(none.result.results).toEqual([]);
	});

	it('reads lists wrapped or bare and ids sent as strings alike', async () => {
		pickers.emu.setVariants({ bare: true, stringIds: true, wrapLists: true });
		const { result } = await search('searchSolutions', PARENTS.searchSolutions);
		expect(result.results.map((entry) => entry.value)).toEqual(['101', '102', '103', '105']);
	});
});

describe('searchInstallations (Installation locator, From List)', () => {
	it("lists the token's end user's installations with their status in the name", async () => {
		const { result, calls } = await search('searchInstallations', PARENTS.searchInstallations);
		expect(result.results).toEqual([
			{ name: 'Leads for ACME (5001, active)', value: '5001' },
			{ name: 'Leads for Globex (5002, paused)', value: '5002' },
		]);
		expect(calls).toEqual(['GET /solution/installation']);
	});

	it('shows another end user only their own installations', async () => {
		const { result, requests } = await search(
			'searchInstallations',
			PARENTS.searchInstallations,
			undefined,
			pickers.emu.token({ sub: 'user-2' }),
		);
		expect(result.results).toEqual([{ name: 'Orders of user 2 (5003, paused)', value: '5003' }]);
		expect(requests[0].user).toBe('user-2');
	});

	it('filters by title', async () => {
		const { result } = await search('searchInstallations', PARENTS.searchInstallations, 'globex');
		expect(result.results.map((entry) => entry.value)).toEqual(['5002']);
	});

	it('leaves the status out when the list does not carry it', async () => {
		pickers.emu.setVariants({ listWithoutStatus: true });
		const { result } = await search('searchInstallations', PARENTS.searchInstallations);
		expect(result.results.map((entry) => entry.name)).toEqual([
			'Leads for ACME (5001)',
			'Leads for Globex (5002)',
		]);
	});
});

describe('getTemplates (Template Names or IDs)', () => {
	it("names each template 'Title (ID)' like the solutions, its parent automation once, in the description", async () => {
		const { result, calls } = await options('getTemplates', PARENTS.getTemplates);
		expect(result).toEqual([
			{
				name: 'New lead → welcome email (1011)',
				value: 1011,
				description: 'Parent automation: Lead welcome flow (3011)',
			},
			{
				name: 'Deal won → add tag (1012)',
				value: 1012,
				description: 'Parent automation: Deal won tagging (3012)',
			},
		]);
		expect(calls).toEqual(['GET /solution/101/templates']);
	});

	it('follows a solution given By ID, on any operation that asks for one', async () => {
		const { result, calls } = await options('getTemplates', {
			resource: 'solution',
			operation: 'getTemplates',
			solutionId: byId('id', ' 103 '),
		});
		expect(result.map((option) => option.value)).toEqual([1031]);
		expect(calls).toEqual(['GET /solution/103/templates']);
	});

	it.each([
		['no solution chosen', { mode: 'list', value: '' }],
		[
			'an expression the editor cannot resolve',
			{ __rl: true, mode: 'id', value: '={{ $json.solution }}' },
		],
		['something that is not an id', { __rl: true, mode: 'id', value: 'abc' }],
	])('returns [] and sends no request for %s', async (_case, solutionId) => {
		const { result, calls } = await options('getTemplates', {
			...PARENTS.getTemplates,
			solutionId,
		});
		expect(result).toEqual([]);
		expect(calls).toEqual([]);
	});
});

describe('getBundles (Automation (Bundle) Name or ID)', () => {
	it('lists the automations of the chosen installation, with one detail request', async () => {
		const { result, calls } = await options('getBundles', PARENTS.getBundles);
		expect(result).toEqual([
			{ name: 'New lead → welcome email (7001)', value: 7001 },
			{ name: 'Deal won → add tag (7002)', value: 7002 },
		]);
		expect(calls).toEqual(['GET /solution/installation/5001?expand=app.templates,+bundles.steps']);
	});

	it('serves Bundle Data → Get Many (one automation) the same way', async () => {
		const { result } = await options('getBundles', {
			resource: 'bundleData',
			operation: 'getAll',
			scope: 'bundle',
			installationId: byId('id', 5002),
		});
		expect(result.map((option) => option.value)).toEqual([7003]);
	});

	it('returns [] and sends no request while no installation is chosen', async () => {
		const { result, calls } = await options('getBundles', {
			...PARENTS.getBundles,
			installationId: { __rl: true, mode: 'list', value: '' },
		});
		expect(result).toEqual([]);
		expect(calls).toEqual([]);
	});
});

describe('getSteps (Step Name or ID)', () => {
	it("lists the chosen automation's steps with their titles, and their fields' labels as a hint", async () => {
		const { result, calls } = await options('getSteps', PARENTS.getSteps);
		expect(result).toEqual([
			{
				name: 'New lead in CRM (9001)',
				value: 9001,
				description: 'Lead source, Minimum score, Only new leads',
			},
			{
				name: 'Send welcome email (9002)',
				value: 9002,
				description: 'Subject, Mailing list, Delay, minutes, Double opt-in',
			},
		]);
		// Titles come with the installation's detail, labels with the bundle data: two requests.
		expect(calls.sort()).toEqual([
			'GET /bundle/data?filter[bundleId]=7001',
			'GET /solution/installation/5001?expand=app.templates,+bundles.steps',
		]);
	});

	it('needs only the bundle data when no installation is chosen', async () => {
		const { result, calls } = await options('getSteps', {
			...PARENTS.getSteps,
			installationId: { __rl: true, mode: 'list', value: '' },
		});
		expect(result.map((option) => option.value)).toEqual([9001, 9002]);
		expect(calls).toEqual(['GET /bundle/data?filter[bundleId]=7001']);
	});

	it('returns [] and sends no request while no automation is chosen', async () => {
		const { result, calls } = await options('getSteps', { ...PARENTS.getSteps, bundleId: '' });
		expect(result).toEqual([]);
		expect(calls).toEqual([]);
	});
});
