/**
 * End User → Set Own Connection, Get Own Connection, Get Own Connection Fields: the end user's
 * token on /wl/{partner}/…; masked values flagged and never sent back; no value in any error.
 */
import { addUsers, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { type NodeRun, runNode } from '../../support/setup';

const ctx = usePartnerEmulator();

const SECRET = 'cd98e8a3de9a7ee77daeb0e90bae570f';

/** The output and the error (not the node's parameters, where the user typed the value). */
const shown = (run: NodeRun) =>
	JSON.stringify(run.json) +
	(run.error
		? `${run.error.message} ${String(run.error.description)} ${run.error.stack} ${JSON.stringify({ ...run.error, node: undefined })}`
		: '');
const own = (operation: string, extra = {}) => ({
	resource: 'endUser',
	operation,
	ownPartnerName: ctx.emu.partner.name,
	...extra,
});
const setJson = (fields: unknown) =>
	own('setOwnConnection', {
		ownFieldsMode: 'json',
		ownFields: typeof fields === 'string' ? fields : JSON.stringify(fields),
	});

describe('End User → Set Own Connection', () => {
	it('upserts the fields and flags the masked secrets; the secret appears nowhere', async () => {
		const run = await runNode(ctx.emu, setJson({ userId: 87123, accessToken: SECRET }));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([`POST /wl/${ctx.emu.partner.name}/upsert-own-credential`]);
		expect(ctx.emu.requests.at(-1)?.body).toEqual({
			fields: { userId: 87123, accessToken: SECRET },
		});
		expect(run.json[0]).toMatchObject({
			userId: 87123,
			accessToken: '••570f',
			maskedFields: ['accessToken'],
		});
		expect(run.json[0].webhookUrl).toEqual(expect.any(String));
		expect(run.serialized).not.toContain(SECRET);
	});

	it('takes the mapper values', async () => {
		const run = await runNode(
			ctx.emu,
			own('setOwnConnection', {
				ownFieldsMode: 'mapper',
				ownFieldMapper: {
					mappingMode: 'defineBelow',
					value: { domain: 'zone1.partner.com', userId: '' },
				},
			}),
		);
		expect(run.error).toBeUndefined();
		expect(ctx.emu.requests.at(-1)?.body).toEqual({ fields: { domain: 'zone1.partner.com' } });
	});

	it.each([
		['a masked value (••)', { accessToken: '••570f' }, /"accessToken" is a masked value/],
		['a masked value (****)', { secretKey: '****' }, /"secretKey" is a masked value/],
		['no fields', {}, /Connection Fields is empty/],
		['a nested value', { userId: { id: 1 } }, /"userId" must be a text/],
		['an unsafe key', '{"__proto__": {"x": 1}}', /cannot be sent/],
		['JSON that does not parse', `{"accessToken": "${SECRET}",}`, /is not valid JSON$/],
	])('refuses %s before any request, quoting no value', async (_name, fields, message) => {
		const run = await runNode(ctx.emu, setJson(fields));
		expect(run.error?.message).toMatch(message);
		expect(run.calls).toEqual([]);
		expect(run.error?.message).not.toContain(SECRET.slice(0, 10));
		expect(String(run.error?.description)).not.toContain(SECRET.slice(0, 10));
	});

	it("refuses a bad Partner Name before any request; the service's field refusal names no value", async () => {
		const bad = await runNode(ctx.emu, { ...setJson({ userId: 1 }), ownPartnerName: 'a b/c' });
		expect(bad.error?.message).toMatch(/Partner Name is not valid/);
		expect(bad.calls).toEqual([]);
		const refused = await runNode(ctx.emu, setJson({ nope: SECRET }));
		expect(refused.calls).toHaveLength(1);
		expect(refused.error).toBeDefined();
		expect(shown(refused)).not.toContain(SECRET);
	});
});

describe('End User → Get Own Connection / Get Own Connection Fields', () => {
	it('reads the connection (404 before there is one), secrets masked and flagged', async () => {
		const none = await runNode(ctx.emu, own('getOwnConnection'));
		expect(none.error?.message).toBeDefined();
		expect(none.calls).toEqual([`POST /wl/${ctx.emu.partner.name}/get-own-credential`]);
		ctx.emu.ownCredentials.add('user-1', { userId: 5, secretKey: SECRET });
		const run = await runNode(ctx.emu, own('getOwnConnection'));
		expect(run.json[0]).toMatchObject({ userId: 5, maskedFields: ['secretKey'] });
		expect(run.serialized).not.toContain(SECRET);
	});

	it.each([
		['default', {}],
		['bare', { bare: true }],
		['extra fields', { connectionExtraFields: true }],
		['metadata only for users', { ownMetadataAuth: 'user' as const }],
		['metadata only by GET', { ownMetadataMethod: 'get' as const }],
	])('lists the fields (%s)', async (_name, variants) => {
		ctx.emu.setVariants(variants);
		const run = await runNode(ctx.emu, own('getOwnConnectionFields'));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([`GET /wl/${ctx.emu.partner.name}/get-own-credential-metadata`]);
		const fields = run.json[0].fields as Array<{ id: string; secret: boolean }>;
		expect(fields.map((f) => f.id)).toEqual(['userId', 'accessToken', 'secretKey', 'domain']);
		expect(fields.filter((f) => f.secret).map((f) => f.id)).toEqual(['accessToken', 'secretKey']);
	});
});

describe('metadata only by POST (its page shows "GET|POST", its example POSTs)', () => {
	it('asks by GET, and by POST after the 405', async () => {
		ctx.emu.setVariants({ ownMetadataMethod: 'post' });
		const path = `/wl/${ctx.emu.partner.name}/get-own-credential-metadata`;
		const run = await runNode(ctx.emu, own('getOwnConnectionFields'));
		expect(run.error).toBeUndefined();
		expect(run.calls).toEqual([`GET ${path}`, `POST ${path}`]);
		expect((run.json[0].fields as Array<{ id: string }>).map((f) => f.id)).toEqual([
			'userId',
			'accessToken',
			'secretKey',
			'domain',
		]);
	});

	it('another refusal is not asked again', async () => {
		ctx.emu.setVariants({ ownMetadataMethod: 'post' });
		ctx.emu.faults.add({ method: 'GET', path: /get-own-credential-metadata$/, status: 403 });
		const run = await runNode(ctx.emu, own('getOwnConnectionFields'));
		expect(run.error?.httpCode).toBe('403');
		expect(run.calls).toHaveLength(1);
	});
});

describe('partner mode', () => {
	beforeEach(async () => await addUsers(ctx.emu, ['cust-1']));

	it("each operation acts as the End User ID on the credential's partner path", async () => {
		const path = `/wl/${ctx.emu.partner.name}`;
		for (const [operation, extra, call] of [
			[
				'setOwnConnection',
				{ ownFieldsMode: 'json', ownFields: JSON.stringify({ accessToken: SECRET }) },
				`POST ${path}/upsert-own-credential`,
			],
			['getOwnConnection', {}, `POST ${path}/get-own-credential`],
			['getOwnConnectionFields', {}, `GET ${path}/get-own-credential-metadata`],
		] as const) {
			const run = await runPartner(ctx.emu, { resource: 'endUser', operation, ...extra });
			expect(run.error).toBeUndefined();
			expect(run.calls.at(-1)).toBe(call);
			expect(ctx.emu.requests.at(-1)?.user).toMatch(/cust-1$/);
			expect(run.serialized).not.toContain(SECRET);
		}
		expect(ctx.emu.ownCredentials.list(ctx.emu.requests.at(-1)!.user!)[0].values.accessToken).toBe(
			SECRET,
		);
	});
});
