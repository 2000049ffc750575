/**
 * Credentials saved by an earlier release keep working unchanged. A Partner API credential holds
 * Send Master Token As as `basicAuthStyle` (`raw`, `usernamePassword`); the node reads it through
 * n8n-core, whose credentials helper drops what a credential type does not declare (the harness
 * does the same) and fills `headerForm` with its default, Auto. The chosen form is sent, and only
 * it: on Auto the node would have tried another after the 401. Send Token As and Send End-User
 * Tokens As kept their names and values (`headerForm`, `endUserHeaderForm`): saved ones are read
 * as they were.
 */
import type { ICredentialDataDecryptedObject, INodeParameters } from 'n8n-workflow';

import { AlbatoPartnerApi } from '../../credentials/AlbatoPartnerApi.credentials';
import { AlbatoSolutionsApi } from '../../credentials/AlbatoSolutionsApi.credentials';
import { testCredential } from '../../harness/credentialTest';
import { FORM_PROPERTIES } from '../../nodes/shared/readers/token';
import {
	addUsers,
	partnerCredential,
	runPartner,
	usePartnerEmulator,
} from '../support/partnerSetup';
import { runNode } from '../support/setup';

const ctx = usePartnerEmulator();

const getApps: INodeParameters = { resource: 'solution', operation: 'getAll', returnAll: true };
const listInstallations: INodeParameters = {
	resource: 'installation',
	operation: 'getAll',
	returnAll: true,
};

/** The Authorization forms of the calls since `from`, with their statuses ("basicUsername 401"). */
const sent = (from = 0) => ctx.emu.requests.slice(from).map((r) => `${r.auth} ${r.status}`);

/** A permanent token of a new end user (what add-user hands out). */
async function permanentToken(id: string): Promise<string> {
	await addUsers(ctx.emu, [id]);
	return ctx.emu.state.endUsers.get(`${ctx.emu.partner.name}\n${id}`)?.permanentToken ?? '';
}

describe('the names written and the names read', () => {
	it('one set written (headerForm, endUserHeaderForm, one value per form); the earlier name declared hidden', () => {
		const forms = (properties: Array<{ name: string; type: string }>) =>
			properties.filter((p) => p.name.endsWith('Form')).map((p) => p.name);
		const hidden = (properties: Array<{ name: string; type: string }>) =>
			properties.filter((p) => p.type === 'hidden').map((p) => p.name);
		const partner = new AlbatoPartnerApi().properties;
		const access = new AlbatoSolutionsApi().properties;
		expect([forms(partner), forms(access)]).toEqual([
			['headerForm', 'endUserHeaderForm'],
			['headerForm'],
		]);
		expect([...hidden(partner), ...hidden(access)]).toEqual(Object.values(FORM_PROPERTIES).flat());
		const values = (properties: typeof partner, name: string) =>
			properties.find((p) => p.name === name)?.options?.map((o) => 'value' in o && o.value);
		expect(values(partner, 'headerForm')).toEqual(['auto', 'basicUsername', 'basicRaw', 'bearer']);
		expect(values(partner, 'endUserHeaderForm')).toEqual(['auto', 'bearer', 'basicUsername']);
		expect(values(access, 'headerForm')).toEqual(['auto', 'bearer', 'basicUsername']);
	});
});

describe('an Access Token credential saved with Send Token As', () => {
	it('Bearer: a permanent token goes as Bearer only, as it was saved', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBearerPermanent' });
		const token = await permanentToken('p-1');
		const from = ctx.emu.requests.length;
		const run = await runNode(ctx.emu, getApps, { token, saved: { headerForm: 'bearer' } });
		expect(sent(from)).toEqual(['bearer 401']);
		expect(run.error?.description).toMatch(/Send Token As/);
	});

	it('Auto finds Basic username', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBearerPermanent' });
		const token = await permanentToken('p-1');
		const from = ctx.emu.requests.length;
		const run = await runNode(ctx.emu, getApps, { token, saved: { headerForm: 'auto' } });
		expect(run.error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 200']);
	});

	it('its credential test sends the saved form', async () => {
		ctx.emu.setVariants({ strictAuth: 'noBearerPermanent' });
		const token = await permanentToken('p-1');
		const from = ctx.emu.requests.length;
		const data = { baseUrl: ctx.emu.baseUrl, accessToken: token, headerForm: 'bearer' };
		const result = await testCredential(new AlbatoSolutionsApi(), data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused it as Bearer \(401\) and took it as Basic Username/);
		expect(sent(from)).toEqual(['bearer 401', 'basicUsername 200']);
	});
});

describe('a Partner API credential saved by an earlier release', () => {
	beforeEach(async () => addUsers(ctx.emu, ['c-1']));
	const asC1 = (saved: ICredentialDataDecryptedObject) =>
		runPartner(ctx.emu, listInstallations, {
			inputItems: [{ customer: 'c-1' }],
			credential: partnerCredential(ctx.emu, saved),
		});

	it.each([
		['raw', 'basicRaw'],
		['usernamePassword', 'basicUsername'],
	])('basicAuthStyle %s: the master token goes as %s, and only so', async (saved, form) => {
		ctx.emu.partner.set({ acceptStyles: saved === 'raw' ? 'usernamePassword' : 'raw' });
		const from = ctx.emu.requests.length;
		const run = await asC1({ basicAuthStyle: saved });
		expect(sent(from)).toEqual([`${form} 401`]);
		expect(run.error?.description).toMatch(/Send Master Token As/);
	});

	it('basicAuthStyle raw, a service that takes it: one call for the token, as before', async () => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const from = ctx.emu.requests.length;
		expect((await asC1({ basicAuthStyle: 'raw' })).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicRaw 200', 'bearer 200']);
	});

	it('endUserHeaderForm Basic Username: the end user’s session token goes so (on Auto: as Bearer)', async () => {
		const from = ctx.emu.requests.length;
		const saved = { basicAuthStyle: 'usernamePassword', endUserHeaderForm: 'basicUsername' };
		expect((await asC1(saved)).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicUsername 200', 'basicUsername 200']);
	});

	it('a form chosen under the new name wins over the earlier one', async () => {
		ctx.emu.partner.set({ acceptStyles: 'raw' });
		const from = ctx.emu.requests.length;
		const saved = { basicAuthStyle: 'usernamePassword', headerForm: 'basicRaw' };
		expect((await asC1(saved)).error).toBeUndefined();
		expect(sent(from)).toEqual(['basicRaw 200', 'bearer 200']);
	});

	it('its credential test sends the saved form', async () => {
		ctx.emu.partner.set({ acceptStyles: 'usernamePassword' });
		const from = ctx.emu.requests.length;
		const data = { ...partnerCredential(ctx.emu), basicAuthStyle: 'raw' };
		const result = await testCredential(new AlbatoPartnerApi(), data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Send Master Token As/);
		expect(sent(from)[0]).toBe('basicRaw 401');
	});
});
