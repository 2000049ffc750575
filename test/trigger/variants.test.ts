/** The trigger emits the same events in every shape variant of the installation list and detail. */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { startEmulator, type Emulator, type Variants } from '../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';

const ALL = [
	'installationCreated',
	'installationStarted',
	'installationPaused',
	'installationRemoved',
];

let emu: Emulator;
beforeAll(async () => {
	emu = await startEmulator({ port: 0 });
});
afterAll(async () => await emu.close());

const context = (staticData: IDataObject, solutionId: string): IPollFunctions =>
	pollContext({
		nodeType: new AlbatoSolutionsTrigger(),
		parameters: { events: ALL, solutionId: { __rl: true, mode: 'id', value: solutionId } },
		credentials: { albatoSolutionsApi: { baseUrl: emu.baseUrl, accessToken: emu.token() } },
		staticData,
		mode: 'trigger',
	});

const poll = async (staticData: IDataObject, solutionId: string) => {
	const output = await new AlbatoSolutionsTrigger().poll.call(context(staticData, solutionId));
	return (output ? output[0].map((item) => item.json) : []).map((e) => [
		e.event,
		e.installationId,
		e.solutionId,
		e.title,
		e.status,
		e.previousStatus,
	]);
};

/** Baseline, then an install, a start, a pause and a removal made elsewhere, then one poll. */
async function scenario(variants: Partial<Variants>, solutionId: string) {
	emu.reset();
	emu.setVariants(variants);
	const staticData: IDataObject = {};
	expect(await poll(staticData, solutionId)).toEqual([]);
	const response = await fetch(`${emu.baseUrl}/solution/102/installation`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${emu.token()}`, 'Content-Type': 'application/json' },
		body: JSON.stringify({
			credentialData: VALID_CREDENTIAL_DATA[102],
			templateIds: [1021],
			title: 'Orders',
		}),
	});
	expect(response.status).toBe(201);
	emu.state.installations.get(5001)!.status = 0;
	emu.state.installations.get(5002)!.status = 1;
	const created = [...emu.state.installations.values()].find((i) => i.title === 'Orders')!;
	created.status = 1;
	const events = await poll(staticData, solutionId);
	emu.removeInstallation(5002);
	return [...events, ...(await poll(staticData, solutionId))];
}

const VARIANTS: Array<[string, Partial<Variants>]> = [
	['stringIds', { stringIds: true }],
	['bare, wrapped lists', { bare: true, wrapLists: true }],
	['success flag 1/0', { successFlag: 'number' }],
	['list keyed by id', { listShape: 'map' }],
	['status "1"/"0"', { statusShape: 'string' }],
	['status "active"/"paused"', { statusShape: 'word' }],
	['list items with only id and title', { listWithoutStatus: true }],
	[
		'only id and title, status words, wrapped detail, string ids',
		{ listWithoutStatus: true, statusShape: 'word', installationWrapper: true, stringIds: true },
	],
	['list paged, X-Pagination-* headers', { pagination: 'headers' }],
	['list paged, Link header, page parameter renamed', { pagination: 'link', pageParam: 'p' }],
	[
		'list paged, {items, _links, _meta}, only id and title',
		{ pagination: 'body', listWithoutStatus: true },
	],
];

describe.each([
	['all solutions', ''],
	['solution 102 only', '102'],
])('%s', (_name, solutionId) => {
	it.each(VARIANTS)(
		'%s: the same events as under the documented shapes',
		async (_variant, variants) => {
			const expected = await scenario({}, solutionId);
			expect(expected.length).toBeGreaterThan(solutionId ? 1 : 4);
			expect(await scenario(variants, solutionId)).toEqual(expected);
		},
	);
});
