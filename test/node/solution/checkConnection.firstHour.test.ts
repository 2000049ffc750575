/**
 * Solution → Check Connection in partner mode before the partner has any customer: the End User ID
 * tooltip says any existing customer will do and how to make one, and the 404 for an unknown
 * customer first says the master token was accepted, in which form.
 */
import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { runPartner, usePartnerEmulator } from '../../support/partnerSetup';

const ctx = usePartnerEmulator();
const checkConnection = { resource: 'solution', operation: 'checkConnection' };

describe('Check Connection with no customer yet', () => {
	it('End User ID says any existing customer will do, and to create one first', () => {
		const endUserId = new AlbatoSolutions().description.properties.find(
			(property) => property.name === 'endUserId',
		);
		expect(endUserId?.description).toMatch(
			/Check Connection and the solution reads take any existing customer; with none yet, create one first with End User → Create\.$/,
		);
	});

	it.each([
		['both forms', undefined, 'Basic username (token + empty password)'],
		['Basic token only', 'raw' as const, 'Basic token'],
	])(
		'an unknown customer (service takes %s): the master token was accepted, as which form, then the 404',
		async (_name, acceptStyles, form) => {
			if (acceptStyles) ctx.emu.partner.set({ acceptStyles });
			const run = await runPartner(ctx.emu, checkConnection, {
				inputItems: [{ customer: 'nobody-yet' }],
			});
			expect(run.error?.httpCode).toBe('404');
			const description = String(run.error?.description);
			const accepted = description.indexOf(`The master token was accepted (as ${form}`);
			expect(accepted).toBeGreaterThan(0);
			expect(
				description.indexOf('No end user with this End User ID: create it first'),
			).toBeGreaterThan(accepted);
		},
	);
});
