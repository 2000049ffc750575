/** Run → Get New: bad input fails its item with the parameter's name, before any request. */
import { usePartnerEmulator } from '../../support/partnerSetup';
import { watcher } from '../../support/sweeps';

const ctx = usePartnerEmulator();

it.each([
	[
		{ options: { maxRunsPerCustomer: 5 } },
		/Max Remembered Runs per Customer must be a whole number of at least 10, got 5/,
	],
	[
		{ groupIntoIncidents: true, remindAfterHours: -1 },
		/Remind After \(Hours\) must be a number of at least 0/,
	],
	[{ filters: { status: 'broken' } }, /Filters → Status must be/],
	[
		{ runsOf: 'installation', installationId: { __rl: true, mode: 'id', value: '={{ "abc" }}' } },
		/Installation/,
	],
	[{ runsOf: 'elsewhere' }, /Runs Of must be/],
])('%j', async (parameters, message) => {
	const w = watcher(ctx.emu, { partner: true, parameters });
	const sweep = await w.sweep([{ customer: 'c1' }]);
	expect(sweep.json).toEqual([]);
	expect(sweep.errorPairs).toEqual([{ item: 0 }]);
	expect(String(sweep.errors[0].error)).toMatch(message);
	expect(sweep.calls).toEqual([]);
});

it.each([
	[{ options: { latenessMinutes: -5 } }, /Allowed Lateness \(Minutes\) must be a whole number/],
	[{ options: { latenessMinutes: 1441 } }, /Allowed Lateness \(Minutes\) must be a whole number/],
	[{ options: { sweepGroup: '={{ { batch: 1 } }}' } }, /Sweep Group must be a text/],
])('node version 5: %j', async (parameters, message) => {
	const w = watcher(ctx.emu, { partner: true, parameters, version: 5 });
	const sweep = await w.sweep([{ customer: 'c1' }]);
	expect(sweep.json).toEqual([]);
	expect(sweep.errorPairs).toEqual([{ item: 0 }]);
	expect(String(sweep.errors[0].error)).toMatch(message);
	expect(sweep.calls).toEqual([]);
	expect(w.store().rows.size).toBe(0);
});

it('node version 5: an Allowed Lateness that differs between items fails them all, before any request', async () => {
	const w = watcher(ctx.emu, {
		partner: true,
		version: 5,
		parameters: { options: { latenessMinutes: '={{ $json.customer === "c1" ? 10 : 20 }}' } },
	});
	const sweep = await w.sweep([{ customer: 'c1' }, { customer: 'c2' }]);
	expect(sweep.json).toEqual([]);
	expect(sweep.errorPairs).toEqual([{ item: 0 }, { item: 1 }]);
	expect(sweep.errors.map((item) => item.error)).toEqual([
		'Options → Allowed Lateness (Minutes) differs between item 0 and item 1',
		'Options → Allowed Lateness (Minutes) differs between item 0 and item 1',
	]);
	expect(sweep.calls).toEqual([]);
	expect(w.store().rows.size).toBe(0);
});
