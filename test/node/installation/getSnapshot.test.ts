/**
 * Installation → Get Snapshot and Ensure's Snapshot (JSON) input: snapshot →
 * change → restore gives back every field value with its type (text, number, boolean, list
 * reference, list, object, null) and the status; a snapshot that does not fit is refused before any
 * request for that item. Under both credentials, through n8n-core and the emulator.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../../support/partnerSetup';
import { byId, runNode, type NodeRun } from '../../support/setup';

const ctx = usePartnerEmulator();

const TITLE = 'Tickets for Initech';
const install: INodeParameters = {
	resource: 'installation',
	operation: 'ensure',
	solutionId: byId('id', 103),
	title: TITLE,
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[103]),
	templateIds: [1031],
	desiredStatus: 'active',
	options: { lostAnswerCheck: 0.5 },
};
const getSnapshot = (id: number | string): INodeParameters => ({
	resource: 'installation',
	operation: 'getSnapshot',
	installationId: byId('id', id),
});
const restore = (snapshot: string = '={{ $json }}'): INodeParameters => ({
	resource: 'installation',
	operation: 'ensure',
	desiredStateMode: 'snapshot',
	snapshot,
	options: { lostAnswerCheck: 0.5 },
});
/** Every value of every field of every step of the installation, as the emulator holds them. */
function stateOf(id: number) {
	const installation = ctx.emu.state.installations.get(id)!;
	return {
		status: installation.status,
		fields: installation.bundleIds.flatMap((bundleId) =>
			ctx.emu.state.bundles
				.get(bundleId)!
				.stepIds.map((stepId) =>
					ctx.emu.state.bundleData.get(stepId)!.fields.map(({ name, value }) => ({ name, value })),
				),
		),
	};
}
const installationId = () =>
	[...ctx.emu.state.installations.values()].find((i) => i.title === TITLE)!.id;
const step = 'Post message';
/** A different value for every field of template 1031: each type changed. */
const CHANGES = [
	{ automation: 1031, step: 'New ticket', code: 'cf__9d8c7b6a5f4e4d3c', value: '{%21:low%}' },
	{ automation: 1031, step: 'New ticket', code: 'minAgeMinutes', value: 12.5 },
	{ automation: 1031, step, code: 'channel', value: '#sales' },
	{ automation: 1031, step, code: 'mention', value: false },
	{ automation: 1031, step, code: 'alsoPostTo', value: [] },
	{ automation: 1031, step, code: 'cf__6a1b2c3d4e5f4a6b', value: { threads: false } },
	{ automation: 1031, step, code: 'maxPerHour', value: 20 },
];

const credentials = [
	{
		name: 'Access Token',
		run: (parameters: INodeParameters, inputItems?: IDataObject[]) =>
			runNode(ctx.emu, parameters, { inputItems, continueOnFail: true }),
	},
	{
		name: 'Partner API',
		run: (parameters: INodeParameters, inputItems?: IDataObject[]) =>
			runPartner(ctx.emu, parameters, {
				credential: partnerCredential(ctx.emu),
				// The customer's ID beside the snapshot, as a fleet workflow keeps them.
				inputItems: (inputItems ?? [{}]).map((item) => ({ ...item, customer: 'cust-1' })),
				continueOnFail: true,
			}),
	},
];

describe.each(credentials)('Get Snapshot → change → Ensure restores ($name)', ({ name, run }) => {
	beforeEach(async () => {
		if (name === 'Partner API') await addUsers(ctx.emu, ['cust-1']);
		expect((await run(install)).error).toBeUndefined();
	});

	it('puts back every field value with its type, and the status', async () => {
		const id = installationId();
		const before = stateOf(id);
		const taken = await run(getSnapshot(id));
		expect(taken.error).toBeUndefined();
		const snapshot = taken.json[0];
		expect(Object.keys(snapshot)).toEqual([
			'solutionId',
			'title',
			'status',
			'templateIds',
			'fieldValues',
		]);
		expect(snapshot).toMatchObject({
			solutionId: 103,
			title: TITLE,
			status: 'active',
			templateIds: [1031],
		});
		expect(snapshot.fieldValues).toEqual([
			{
				automation: 1031,
				step: 'New ticket',
				code: 'cf__9d8c7b6a5f4e4d3c',
				label: 'Priority',
				value: '{%21:high%}',
			},
			{
				automation: 1031,
				step: 'New ticket',
				code: 'minAgeMinutes',
				label: 'Minimum age, minutes',
				value: 0,
			},
			{ automation: 1031, step, code: 'channel', label: 'Channel', value: '#support' },
			{ automation: 1031, step, code: 'mention', label: 'Mention on-call', value: true },
			{
				automation: 1031,
				step,
				code: 'alsoPostTo',
				label: 'Also post to',
				value: ['#ops', '#leads'],
			},
			{
				automation: 1031,
				step,
				code: 'cf__6a1b2c3d4e5f4a6b',
				label: 'Message options',
				value: { threads: true, emoji: ':ticket:', retries: 2 },
			},
			{ automation: 1031, step, code: 'maxPerHour', label: 'Max messages per hour', value: null },
		]);

		// Change every field and pause it.
		const changed = await run({
			...install,
			desiredFieldsMode: 'json',
			desiredFieldsJson: JSON.stringify(CHANGES),
			desiredStatus: 'paused',
		});
		expect(changed.error).toBeUndefined();
		expect((changed.json[0].changed as IDataObject).fields).toHaveLength(CHANGES.length);
		expect(stateOf(id)).not.toEqual(before);

		// Restore from the snapshot as it was output, kept beside the customer's ID.
		const restored = await run(restore('={{ $json.snapshot }}'), [{ snapshot }]);
		expect(restored.error).toBeUndefined();
		expect(restored.json[0]).toMatchObject({
			created: false,
			changed: { status: { from: 0, to: 1 } },
			unchanged: false,
		});
		expect((restored.json[0].changed as IDataObject).fields).toHaveLength(CHANGES.length);
		expect(stateOf(id)).toEqual(before);
		expect((await run(getSnapshot(id))).json[0]).toEqual(snapshot);

		// Restoring again changes nothing; a snapshot given as JSON text works the same.
		const writesBefore = ctx.emu.requests.length;
		const again = await run(restore(JSON.stringify(snapshot)));
		expect(again.json[0]).toMatchObject({ unchanged: true });
		expect(
			ctx.emu.requests
				.slice(writesBefore)
				.filter((entry) => entry.method !== 'GET' && !/\/wl\//.test(entry.path)),
		).toEqual([]);
	});

	it.each<[string, (snapshot: IDataObject) => unknown, string]>([
		[
			'an unknown key',
			(s) => ({ ...s, installationId: 5 }),
			'has the unknown key "installationId"; a snapshot holds only solutionId, title, status, templateIds, fieldValues, connectionSettings, settings',
		],
		['a missing key', ({ status: _status, ...s }) => s, 'has no "status"'],
		[
			'a title that is a number',
			(s) => ({ ...s, title: 7 }),
			'"title" must be a non-empty text of at most 255 characters, got 7',
		],
		[
			'a solution ID as text',
			(s) => ({ ...s, solutionId: '103' }),
			'"solutionId" must be a solution ID (a whole number), got "103"',
		],
		[
			'a status word it does not know',
			(s) => ({ ...s, status: 1 }),
			'"status" must be "active", "paused" or "leave", got 1',
		],
		[
			'templates that are not IDs',
			(s) => ({ ...s, templateIds: ['New ticket'] }),
			'"templateIds" must be a non-empty list of template IDs (whole numbers), got a list',
		],
		[
			'field values that are not a list',
			(s) => ({ ...s, fieldValues: {} }),
			'"fieldValues" must be a list, got an object',
		],
		[
			'a field value without its value',
			(s) => ({ ...s, fieldValues: [{ automation: 1031, step, code: 'channel' }] }),
			'→ fieldValues (item 1): entry 1 has no "value" (write null for no value)',
		],
		[
			'a field entry with an unknown key',
			(s) => ({
				...s,
				fieldValues: [{ automation: 1031, step, code: 'channel', value: 'x', type: 'string' }],
			}),
			'→ fieldValues (item 1): entry 1 has the unknown key "type"; an entry holds only automation, step, code, label, value',
		],
		['not JSON', () => '{"solutionId": ', 'is not valid JSON'],
	])(
		'refuses %s, naming the parameter and the item; sends nothing for it',
		async (_case, spoil, message) => {
			const id = installationId();
			const snapshot = (await run(getSnapshot(id))).json[0];
			const bad = spoil(snapshot);
			const before = ctx.emu.requests.length;
			// Item 0 is a good snapshot, item 1 the bad one (continue on fail): item 1 sends nothing.
			const result = await run(
				restore('={{ typeof $json.bad === "string" ? $json.bad : ($json.bad ?? $json.good) }}'),
				[{ good: snapshot }, { bad: bad as IDataObject }],
			);
			expect(result.json[0]).toMatchObject({ unchanged: true });
			const error = result.json[1].error as string;
			expect(`${error}`).toContain(message);
			expect(String(result.json[1].error)).toMatch(/^Snapshot/);
			expect(error).toContain('(item 1)');
			const sent = ctx.emu.requests.slice(before).filter((entry) => !/\/wl\//.test(entry.path));
			// Only item 0's reads: the list and one detail, one bundle data read (no write, nothing for
			// item 1).
			expect(sent.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
				'GET /solution/installation',
				`GET /solution/installation/${id}`,
				expect.stringMatching(/^GET \/bundle\/data$/),
				`GET /solution/installation/${id}`,
			]);
		},
	);
});

describe('a snapshot of an installation that is gone', () => {
	it('is refused without connectionSettings, and installs again with them', async () => {
		const run = (parameters: INodeParameters, inputItems?: IDataObject[]) =>
			runNode(ctx.emu, parameters, { inputItems });
		expect((await run(install)).error).toBeUndefined();
		const id = installationId();
		const snapshot = (await run(getSnapshot(id))).json[0];
		ctx.emu.removeInstallation(id);
		const refused: NodeRun = await run(restore(), [snapshot]);
		expect(refused.error?.message).toBe(
			`Snapshot (item 0): the end user has no installation "${TITLE}" of solution 103 to restore, and the snapshot has no "connectionSettings" to install it again`,
		);
		expect(refused.calls).toEqual(['GET /solution/installation']);
		const again = await run(restore(), [
			{ ...snapshot, connectionSettings: VALID_CREDENTIAL_DATA[103] },
		]);
		expect(again.error).toBeUndefined();
		expect(again.json[0]).toMatchObject({ created: true });
	});
});
