/**
 * Installation → Create's install safety where the other tests do not reach, through n8n-core's
 * engine against the emulator: why an outcome is unknown, installations of others that appear
 * meanwhile, the refusal after an unknown outcome, and a twin whose detail cannot be read.
 */
import type { INodeParameters } from 'n8n-workflow';

import { UNKNOWN_TTL_MS } from '../../../nodes/AlbatoSolutions/actions/safeInstall/installLedger';
import { installParams, runNode, useEmulator } from '../../support/setup';
import { useShortWaits } from '../../support/waits';

const ctx = useEmulator();
/** The list lags by reads, never by time: the node's waits can be short. */
useShortWaits();

const install = (options: INodeParameters = {}): INodeParameters =>
	installParams('={{ $json.title }}', {
		options,
		requestOptions: { concurrency: 1, maxRetries: 0 },
	});
const titled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);
const posts = (calls: string[]) => calls.filter((call) => call.startsWith('POST'));
const lostPost = (fault: object = { reset: 'before' }) =>
	ctx.emu.faults.add({ method: 'POST', path: '/solution/102/installation', ...fault });

/**
 * Installations made by someone else just now: hidden from the read before the POST, listed after.
 */
function othersInstall(...titles: string[]): number[] {
	const template = ctx.emu.state.installations.get(5001)!;
	ctx.emu.setListLag({ reads: 1 });
	return titles.map((title, i) => {
		const id = 9900 + i;
		ctx.emu.state.installations.set(id, { ...template, id, title, bundleIds: [] });
		ctx.emu.state.listLag.created(id);
		return id;
	});
}

describe('why the outcome is unknown, in the error', () => {
	it.each([
		[{ reset: 'after' }, "the service's answer was lost", /the connection broke before the answer/],
		[{ status: 503 }, 'the service answered 503', /answered 503 \(.*\), which does not tell/],
		[
			{ malformedJson: true },
			"the service's answer could not be read",
			/answered 20\d with a body that is not valid JSON/,
		],
	])('%j: "%s"', async (fault, summary, detail) => {
		ctx.emu.setListLag({ reads: 50 });
		lostPost(fault);
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Why' }],
		});
		expect(run.error?.message).toBe(`The outcome of installing "Why" is unknown: ${summary}`);
		expect(run.error?.description).toMatch(detail);
		expect(run.error?.description).toMatch(
			/No new installation titled "Why" appeared in 4 reads of the list over 0.5 s; the service may not have installed it, or its list may still lag behind\. It was not sent again/,
		);
		expect(posts(run.calls)).toHaveLength(1);
	});
});

describe("others' installations that appear while the answer is lost", () => {
	it('two new installations with the title: neither is taken, the error names both', async () => {
		const ids = othersInstall('Crowd', 'Crowd');
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Crowd' }],
			continueOnFail: true,
		});
		expect(run.json).toHaveLength(1);
		expect(run.json[0].id).toBeUndefined();
		expect(run.json[0].error).toBe(
			`The outcome of installing "Crowd" is unknown: the service's answer was lost`,
		);
		expect(posts(run.calls)).toHaveLength(1);
		expect(titled('Crowd').map((i) => i.id)).toEqual(ids);
	});

	it('the error names every candidate', async () => {
		const ids = othersInstall('Crowd', 'Crowd');
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Crowd' }],
		});
		expect(run.error?.description).toContain(
			`Several new installations titled "Crowd" appeared (IDs ${ids.join(', ')}); any of them may be this item's.`,
		);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('a new installation with another title is not taken', async () => {
		othersInstall('Someone else');
		lostPost();
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Mine' }],
		});
		expect(run.error?.message).toBe(
			`The outcome of installing "Mine" is unknown: the service's answer was lost`,
		);
		expect(run.error?.description).toMatch(/No new installation titled "Mine" appeared in 4 reads/);
	});
});

describe('Refuse Duplicate Title after an unknown outcome', () => {
	it('refuses the title until the refusal lapses, and says when; nothing is sent', async () => {
		ctx.emu.setListLag({ reads: 50 });
		lostPost();
		const first = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Unsure' }],
		});
		expect(first.error?.message).toMatch(/outcome of installing "Unsure" is unknown/);
		const again = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Unsure' }],
		});
		expect(again.error?.message).toBe(
			'An earlier install of "Unsure" has an unknown outcome: it may exist but not be listed yet',
		);
		const [at, lapses] = [
			...(again.error?.description ?? '').matchAll(/\d{4}-\d\d-\d\dT[\d:.]+Z/g),
		].map((match) => Date.parse(match[0]));
		expect(lapses - at).toBe(UNKNOWN_TTL_MS);
		expect(again.error?.description).toMatch(
			/^Nothing was installed\. The install at .* lost its answer\. .*turn off "Refuse Duplicate Title" to install it now\.$/,
		);
		expect(posts(again.calls)).toHaveLength(0);
		// Without the option it is installed.
		const anyway = await runNode(ctx.emu, install(), { inputItems: [{ title: 'Unsure' }] });
		expect(anyway.error).toBeUndefined();
		expect(posts(anyway.calls)).toHaveLength(1);
	});
});

describe('Refuse Duplicate Title and an unlisted twin', () => {
	it('a twin whose detail cannot be read refuses nothing silently: the item fails, nothing is sent', async () => {
		ctx.emu.setListLag({ reads: 10 });
		const first = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Twin' }],
		});
		const id = first.json[0].id as number;
		ctx.emu.faults.add({ method: 'GET', path: `/solution/installation/${id}`, status: 500 });
		const again = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Twin' }],
		});
		expect(again.error).toBeDefined();
		expect(again.error?.message).not.toMatch(/already exists/);
		expect(posts(again.calls)).toHaveLength(0);
		expect(titled('Twin')).toHaveLength(1);
	});

	it('a removed twin is asked about once, then forgotten', async () => {
		ctx.emu.setListLag({ reads: 10 });
		const first = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Gone' }],
		});
		const gone = first.json[0].id as number;
		ctx.emu.removeInstallation(gone);
		const second = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Gone' }],
		});
		expect(second.calls).toContain(`GET /solution/installation/${gone}`);
		ctx.emu.removeInstallation(second.json[0].id as number);
		const third = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Gone' }],
		});
		expect(third.error).toBeUndefined();
		expect(third.calls).not.toContain(`GET /solution/installation/${gone}`);
		expect(third.calls).toContain(`GET /solution/installation/${second.json[0].id}`);
	});

	it('a twin whose detail shows another title (renamed since) is not a twin', async () => {
		ctx.emu.setListLag({ reads: 10 });
		const first = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Renamed' }],
		});
		ctx.emu.state.installations.get(first.json[0].id as number)!.title = 'Something else';
		const again = await runNode(ctx.emu, install({ refuseDuplicateTitle: true }), {
			inputItems: [{ title: 'Renamed' }],
		});
		expect(again.error).toBeUndefined();
		expect(posts(again.calls)).toHaveLength(1);
	});
});

describe('a 2xx answer that names no installation', () => {
	it('is looked for as after a lost answer: found, not sent again', async () => {
		lostPost({ emptyBody: true });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Nameless' }],
		});
		expect(run.error).toBeUndefined();
		expect(run.json[0].id).toBe(titled('Nameless')[0].id);
		expect(posts(run.calls)).toHaveLength(1);
	});

	it('not found: "outcome unknown", saying the answer named no installation', async () => {
		ctx.emu.setListLag({ reads: 50 });
		lostPost({ emptyBody: true });
		const run = await runNode(ctx.emu, install({ lostAnswerCheck: 0.5 }), {
			inputItems: [{ title: 'Nameless' }],
		});
		expect(run.error?.message).toBe(
			`The outcome of installing "Nameless" is unknown: the service's answer could not be read`,
		);
		expect(run.error?.description).toMatch(
			/^POST \/solution\/102\/installation: the service answered without an installation ID\. /,
		);
		expect(posts(run.calls)).toHaveLength(1);
	});
});
