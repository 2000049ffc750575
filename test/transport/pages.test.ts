/**
 * Paged lists (Yii2's headers, Link header or {items, _links, _meta}) through the node: every page
 * read, a read that cannot complete fails, install checks see every page.
 */

import { MAX_PAGES } from '../../nodes/shared/transport/pages';
import { installParams, runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();
const LIST = 'GET /solution/installation';
const getMany = { resource: 'installation', operation: 'getAll', returnAll: true };
const titled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);

describe('Installation → Get Many', () => {
	it('without a paging signal: one request, as before', async () => {
		const run = await runNode(ctx.emu, getMany);
		expect(run.calls).toEqual([LIST]);
		expect(run.json.map((i) => i.id)).toEqual([5001, 5002]);
	});

	it.each(['headers', 'link', 'body'] as const)(
		'paged (%s): every page read, one request per page',
		async (pagination) => {
			ctx.emu.setVariants({ pagination });
			const run = await runNode(ctx.emu, getMany);
			expect(run.json.map((i) => i.id)).toEqual([5001, 5002]);
			expect(run.calls).toEqual([LIST, LIST]);
			expect(ctx.emu.requests[1].query).toMatchObject({ page: '2' });
		},
	);

	it('a page that fails fails the read: no list cut short', async () => {
		ctx.emu.setVariants({ pagination: 'headers' });
		ctx.emu.faults.add({
			method: 'GET',
			path: '/solution/installation',
			query: /(^|&)page=2(&|$)/,
			status: 500,
		});
		const run = await runNode(ctx.emu, getMany);
		expect(run.error?.message).toMatch(/Emulated fault: 500/);
		expect(run.json).toEqual([]);
	});

	it('a service that ignores the page asked for: a clear error, not the first page again and again', async () => {
		// The pager reads `p`, the counts alone say "page 2 exists": `page=2` brings page 1 back.
		ctx.emu.setVariants({ pagination: 'headers', pageParam: 'p' });
		const run = await runNode(ctx.emu, getMany);
		expect(run.error?.message).toMatch(/Page 2 of the list repeats what was already read/);
		expect(run.error?.description).toMatch(/ignore the page parameter/);
		expect(run.calls).toEqual([LIST, LIST]);
	});

	it(`more than ${MAX_PAGES} pages: fails there rather than loop`, async () => {
		ctx.emu.setVariants({ pagination: 'link' });
		const template = ctx.emu.state.installations.get(5001)!;
		for (let id = 20000; id < 20000 + MAX_PAGES; id++)
			ctx.emu.state.installations.set(id, { ...template, id, title: `Many ${id}`, bundleIds: [] });
		const run = await runNode(ctx.emu, getMany);
		expect(run.error?.message).toBe(`The list has more than ${MAX_PAGES} pages`);
		expect(run.calls).toHaveLength(MAX_PAGES);
	});

	it('a page past the end (the list shrank between reads) ends the read', async () => {
		ctx.emu.setVariants({ pagination: 'body' });
		// Page 1 says 2 pages; before page 2 is read, 5002 goes: Yii answers the last page (page 1)
		// again.
		ctx.emu.faults.add({
			method: 'GET',
			path: '/solution/installation',
			query: /(^|&)page=2(&|$)/,
			delayMs: 50,
		});
		const removed = new Promise<void>((resolve) => {
			const timer = setInterval(() => {
				if (ctx.emu.requests.length === 2) {
					ctx.emu.removeInstallation(5002);
					clearInterval(timer);
					resolve();
				}
			}, 0);
		});
		const run = await runNode(ctx.emu, getMany);
		await removed;
		expect(run.error).toBeUndefined();
		expect(run.json.map((i) => i.id)).toEqual([5001]);
	});
});

describe('Installation → Create sees installations on every page', () => {
	beforeEach(() => ctx.emu.setVariants({ pagination: 'headers' }));

	it('Refuse Duplicate Title: a twin on page 2 refuses the install', async () => {
		const run = await runNode(
			ctx.emu,
			installParams('Leads for Globex', { options: { refuseDuplicateTitle: true } }),
		);
		expect(run.error?.message).toMatch(/Leads for Globex/);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toEqual([]);
		expect(titled('Leads for Globex')).toHaveLength(1);
	});

	it('answer lost: the new installation is found on page 3, never sent again', async () => {
		ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', reset: 'after' });
		const run = await runNode(
			ctx.emu,
			installParams('Paged', {
				options: { lostAnswerCheck: 1 },
				requestOptions: { maxRetries: 0 },
			}),
		);
		expect(run.error).toBeUndefined();
		expect(run.json[0].id).toBe(titled('Paged')[0].id);
		expect(run.calls.filter((call) => call.startsWith('POST'))).toHaveLength(1);
	});
});
