/**
 * Bundle Data → Get Many: every bundle of an installation, or one, each record tagged with its
 * bundle.
 */
import { byId, runNode, useEmulator } from '../../support/setup';

const ctx = useEmulator();

describe('Bundle Data → Get Many', () => {
	it('reads every bundle of an installation, tagging each record with its bundle', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'bundleData',
			operation: 'getAll',
			installationId: byId('list', 5001),
		});
		expect(run.json.map((record) => [record.id, record.bundleId, record.bundleTitle])).toEqual([
			[9001, 7001, 'New lead → welcome email'],
			[9002, 7001, 'New lead → welcome email'],
			[9003, 7002, 'Deal won → add tag'],
			[9004, 7002, 'Deal won → add tag'],
		]);
		expect(run.calls).toEqual([
			'GET /solution/installation/5001',
			'GET /bundle/data',
			'GET /bundle/data',
		]);
		expect(ctx.emu.requests.at(-1)!.rawQuery).toBe('filter[bundleId]=7002');
		const subject = (run.json[1].data as Array<{ name: string; value: unknown }>).find(
			(field) => field.name === 'listId',
		);
		expect(subject?.value).toBe('{%12:345%}');
	});

	it('reads one bundle', async () => {
		const run = await runNode(ctx.emu, {
			resource: 'bundleData',
			operation: 'getAll',
			installationId: byId('id', 5002),
			scope: 'bundle',
			bundleId: 7003,
		});
		expect(run.json.map((record) => record.id)).toEqual([9005, 9006]);
		expect(run.calls).toEqual(['GET /bundle/data']);
	});
});
