/** What goes on the wire: item keys, bodies; how each call is judged; how many run at once. */
import { callOf } from '../../nodes/shared/transport/callOptions';
import { mapLimited } from '../../nodes/shared/transport/mapLimited';
import { INVALID_JSON } from '../../nodes/shared/transport/serviceMessage';
import { itemKey, parseBody } from '../../nodes/shared/transport/wire';

describe('itemKey: the id, else the whole item', () => {
	it.each([
		[{ id: 7, title: 'a' }, 'id:7'],
		[{ id: 0 }, 'id:0'],
		[{ id: 'x-1' }, 'id:x-1'],
		[{ id: null, title: 'a' }, '{"id":null,"title":"a"}'],
		[{ id: undefined, title: 'a' }, '{"title":"a"}'],
		[{ title: 'a' }, '{"title":"a"}'],
	])('%p → %p', (item, key) => expect(itemKey(item)).toBe(key));
});

describe('parseBody', () => {
	it('blank text is no body; JSON is parsed; anything else is invalid JSON', () => {
		expect(parseBody('  \n ')).toBeUndefined();
		expect(parseBody('')).toBeUndefined();
		expect(parseBody(' {"a":1} ')).toEqual({ a: 1 });
		expect(parseBody('<html>')).toBe(INVALID_JSON);
		expect(parseBody({ a: 1 })).toEqual({ a: 1 });
	});
});

describe('callOf: safe to repeat, changes nothing', () => {
	it.each([
		['GET', {}, true, true],
		['PUT', {}, true, false],
		['PLAY', {}, true, false],
		['PAUSE', {}, true, false],
		['POST', {}, false, false],
		['DELETE', {}, false, false],
		['POST', { effect: 'read' }, true, true],
		['POST', { effect: 'write' }, false, false],
		['POST', { effect: 'readOnce' }, false, true],
	] as const)('%s %p: safe %p, changes nothing %p', (method, options, safe, changesNothing) => {
		expect(callOf(method, '/p', { ...options, itemIndex: 5 })).toEqual({
			method,
			path: '/p',
			itemIndex: 5,
			safe,
			changesNothing,
			withMasterToken: false,
		});
	});

	it('knows when the master token is sent (the hints name the token that was refused)', () => {
		expect(callOf('POST', '/wl/a/add-user', { sendAs: 'partner' }).withMasterToken).toBe(true);
		expect(
			callOf('POST', '/credentials/1/2/update-user-data', { sendAs: 'masterBearer' })
				.withMasterToken,
		).toBe(true);
		expect(callOf('POST', '/wl/a/get-own-credential', {}).withMasterToken).toBe(false);
	});
});

describe('mapLimited', () => {
	const run = async (entries: number[], limit: number, keepGoing: (entry: number) => boolean) => {
		const started: number[] = [];
		let inFlight = 0;
		let most = 0;
		await mapLimited(entries, limit, async (entry) => {
			started.push(entry);
			inFlight++;
			most = Math.max(most, inFlight);
			await new Promise((resolve) => setImmediate(resolve));
			inFlight--;
			return keepGoing(entry);
		});
		return { started, most };
	};

	it('runs every entry with at most `limit` in flight', async () => {
		expect(await run([1, 2, 3, 4, 5, 6], 2, () => true)).toEqual({
			started: [1, 2, 3, 4, 5, 6],
			most: 2,
		});
	});

	it('no more workers than entries', async () => {
		expect(await run([1, 2], 5, () => true)).toEqual({ started: [1, 2], most: 2 });
	});

	it('a task returning false stops new starts (those in flight finish)', async () => {
		expect(await run([1, 2, 3, 4, 5, 6], 1, (entry) => entry !== 2)).toEqual({
			started: [1, 2],
			most: 1,
		});
		expect((await run([1, 2, 3, 4, 5, 6], 2, (entry) => entry !== 1)).started).toEqual([1, 2]);
	});
});
