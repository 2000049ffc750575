/**
 * Installation → Ensure's typed values: text read as the field's current type, a
 * label typed where the code is expected, the fields listed when a code matches nothing, and Field
 * Values (JSON) keeping every JSON type. Under both credentials, through n8n-core and the emulator.
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

const MAIL = { automation: 1011, step: 'Send welcome email' };
const ensure = (title: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'ensure',
	solutionId: byId('id', 101),
	title,
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011, 1012],
	desiredStatus: 'active',
	options: { lostAnswerCheck: 0.5 },
	...extra,
});
const fields = (...entries: Array<Record<string, unknown>>) => ({
	desiredFields: { field: entries.map((entry) => ({ ...MAIL, ...entry })) },
});
const writes = (run: NodeRun) => run.calls.filter((call) => !call.startsWith('GET'));
const puts = () =>
	ctx.emu.requests.filter((entry) => entry.method === 'PUT').map((entry) => entry.body);
/** A field of the "Send welcome email" step of the installation with this title. */
function valueOf(title: string, code: string): unknown {
	const installation = [...ctx.emu.state.installations.values()].find((i) => i.title === title)!;
	const bundle = [...ctx.emu.state.bundles.values()].find(
		(b) => b.installationId === installation.id && b.templateId === 1011,
	)!;
	return ctx.emu.state.bundleData.get(bundle.stepIds[1])!.fields.find((f) => f.name === code)
		?.value;
}

const credentials = [
	{
		name: 'Access Token',
		title: 'Leads for ACME',
		run: (parameters: INodeParameters) => runNode(ctx.emu, parameters),
	},
	{
		name: 'Partner API',
		title: 'Acme onboarding',
		run: (parameters: INodeParameters) =>
			runPartner(ctx.emu, parameters, { credential: partnerCredential(ctx.emu) }),
	},
];

describe.each(credentials)(
	'Installation → Ensure, typed values ($name)',
	({ name, title, run }) => {
		beforeEach(async () => {
			if (name === 'Partner API') await addUsers(ctx.emu, ['cust-1']);
		});

		it('a number typed as text is sent as a number; a boolean as a boolean; run again: unchanged', async () => {
			const params = ensure(
				title,
				fields(
					{ code: 'cf__4c2d9e8f0a1b4c3d', value: '30' },
					{ code: 'doubleOptIn', value: 'true' },
				),
			);
			const first = await run(params);
			expect(first.error).toBeUndefined();
			expect(puts().at(-1)).toEqual({ data: { cf__4c2d9e8f0a1b4c3d: 30, doubleOptIn: true } });
			expect(valueOf(title, 'cf__4c2d9e8f0a1b4c3d')).toBe(30);
			expect(valueOf(title, 'doubleOptIn')).toBe(true);
			expect(first.json[0].changed).toMatchObject({
				fields: [
					{ code: 'cf__4c2d9e8f0a1b4c3d', from: 15, to: 30 },
					{ code: 'doubleOptIn', from: false, to: true },
				],
			});
			const again = await run(params);
			expect(again.json[0]).toMatchObject({ unchanged: true, changed: { fields: [] } });
			expect(writes(again)).toEqual([]);
		});

		it('a label typed as the code is taken when one field has it', async () => {
			const result = await run(ensure(title, fields({ code: 'Delay, minutes', value: '45' })));
			expect(result.error).toBeUndefined();
			expect(puts().at(-1)).toEqual({ data: { cf__4c2d9e8f0a1b4c3d: 45 } });
			expect(result.json[0].changed).toMatchObject({
				fields: [{ code: 'cf__4c2d9e8f0a1b4c3d', from: 15, to: 45 }],
			});
		});

		it('text that is not a number is refused, naming the field by its label and the item; nothing changed', async () => {
			const before = ctx.emu.requests.length;
			const result = await run(
				ensure(
					title,
					fields({ code: 'subject', value: 'Hi' }, { code: 'Delay, minutes', value: 'soon' }),
				),
			);
			expect(result.error?.message).toBe(
				'Field Values → entry 2 (item 0): "Delay, minutes" (cf__4c2d9e8f0a1b4c3d) holds a number, and "soon" is not one',
			);
			expect(result.error?.description).toMatch(/^Nothing was changed\. Type the number/);
			const sent = ctx.emu.requests.slice(before);
			expect(sent.filter((entry) => ['PUT', 'PLAY', 'PAUSE'].includes(entry.method))).toEqual([]);
		});

		it('a code that matches nothing lists the fields as code (label)', async () => {
			const result = await run(ensure(title, fields({ code: 'Delay', value: '1' })));
			expect(result.error?.message).toMatch(
				/^Field Values: no field "Delay" in step "Send welcome email" in installation \d+\. Its fields: subject \(Subject\), listId \(Mailing list\), cf__4c2d9e8f0a1b4c3d \(Delay, minutes\), doubleOptIn \(Double opt-in\)$/,
			);
		});

		it('Field Values (JSON) keeps each type; a bad entry is refused before any request', async () => {
			const json = (value: unknown) =>
				ensure(title, {
					desiredFieldsMode: 'json',
					desiredFieldsJson: JSON.stringify(value),
				});
			const ok = await run(
				json([
					{ ...MAIL, code: 'subject', value: '30' },
					{ ...MAIL, code: 'cf__4c2d9e8f0a1b4c3d', value: 31 },
				]),
			);
			expect(ok.error).toBeUndefined();
			expect(valueOf(title, 'subject')).toBe('30');
			expect(valueOf(title, 'cf__4c2d9e8f0a1b4c3d')).toBe(31);

			const before = ctx.emu.requests.length;
			const bad = await run(json([{ ...MAIL, code: 'subject', value: 'x', extra: 1 }]));
			expect(bad.error?.message).toBe(
				'Field Values (JSON) (item 0): entry 1 has the unknown key "extra"; an entry holds only automation, step, code, label, value',
			);
			expect(ctx.emu.requests.slice(before).filter((entry) => !/\/wl\//.test(entry.path))).toEqual(
				[],
			);
		});
	},
);

describe('Installation → Ensure, the answer first and other installations named', () => {
	it('puts created, changed, unchanged before installation, and names the other installation', async () => {
		const result = await runNode(ctx.emu, ensure('Leads for ACME', {}));
		expect(result.error).toBeUndefined();
		expect(Object.keys(result.json[0])).toEqual([
			'created',
			'changed',
			'unchanged',
			'notice',
			'otherInstallations',
			'installation',
		]);
		// The status as installation.status gives it (versions 1 and 2 keep the word: versions.ts).
		expect(result.json[0].otherInstallations).toEqual([
			{ id: 5002, title: 'Leads for Globex', status: 0 },
		]);
		expect(typeof (result.json[0].installation as IDataObject).status).toBe('number');
		expect(result.json[0].notice).toBe(
			'The end user has 1 other installation of this solution: "Leads for Globex" (5002). Ensure found "Leads for ACME" by its exact title; if one of these was meant, use its exact title.',
		);
	});

	it('says it found none and installed one when it installed, naming the others', async () => {
		const result = await runNode(ctx.emu, ensure('Leads for Initech', {}));
		expect(result.error).toBeUndefined();
		expect(result.json[0].created).toBe(true);
		expect(result.json[0].notice).toBe(
			'Ensure found no installation titled "Leads for Initech" and installed one. The end user has 2 other installations of this solution: "Leads for ACME" (5001), "Leads for Globex" (5002); if one of these was meant, use its exact title (and remove the new one).',
		);
	});
});

describe('Installation → Ensure, text for list, object and empty fields', () => {
	const tickets = (entries: Array<Record<string, unknown>>) => ({
		...ensure('Tickets', {
			solutionId: byId('id', 103),
			credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[103]),
			templateIds: [1031],
		}),
		desiredFields: {
			field: entries.map((entry) => ({ automation: 1031, step: 'Post message', ...entry })),
		},
	});
	const post = (code: string) => {
		const installation = [...ctx.emu.state.installations.values()].find(
			(i) => i.title === 'Tickets',
		)!;
		const bundle = ctx.emu.state.bundles.get(installation.bundleIds[0])!;
		return ctx.emu.state.bundleData.get(bundle.stepIds[1])!.fields.find((f) => f.name === code)
			?.value;
	};

	it('JSON text becomes a list or an object; "20" for a field with no value is refused as ambiguous', async () => {
		const ok = await runNode(
			ctx.emu,
			tickets([
				{ code: 'alsoPostTo', value: '["#a", "#b"]' },
				{ code: 'Message options', value: '{"threads": false}' },
			]),
		);
		expect(ok.error).toBeUndefined();
		expect(post('alsoPostTo')).toEqual(['#a', '#b']);
		expect(post('cf__6a1b2c3d4e5f4a6b')).toEqual({ threads: false });

		const bad = await runNode(ctx.emu, tickets([{ code: 'maxPerHour', value: '20' }]));
		expect(bad.error?.message).toBe(
			'Field Values → entry 1 (item 0): "Max messages per hour" (maxPerHour) has no value now, so its type is unknown, and "20" could be text or JSON',
		);
		expect(bad.calls.filter((call) => !call.startsWith('GET'))).toEqual([]);
		// An expression keeps its type: 20 as a number, then null back to "no value".
		const twenty = await runNode(ctx.emu, tickets([{ code: 'maxPerHour', value: '={{ 20 }}' }]));
		expect(twenty.error).toBeUndefined();
		expect(post('maxPerHour')).toBe(20);
		const none = await runNode(ctx.emu, tickets([{ code: 'maxPerHour', value: '={{ null }}' }]));
		expect(none.error).toBeUndefined();
		expect(post('maxPerHour')).toBeNull();
		const list = await runNode(ctx.emu, tickets([{ code: 'alsoPostTo', value: '#a' }]));
		expect(list.error?.message).toBe(
			'Field Values → entry 1 (item 0): "Also post to" (alsoPostTo) holds a list, and "#a" is not one in JSON',
		);
	});
});
