/**
 * A credential's choice of token form, read from the names this release writes (`headerForm`,
 * `endUserHeaderForm`) and from the one an earlier release saved (`basicAuthStyle`, with `raw` and
 * `usernamePassword`). Through n8n-core: test/credentials/savedForms.test.ts.
 */
import { chosenForm, formChoice } from '../../nodes/shared/readers/token';

describe('formChoice', () => {
	it('a form set under the name written now is the choice, whatever an earlier name says', () => {
		expect(
			formChoice({ headerForm: 'basicRaw', basicAuthStyle: 'usernamePassword' }, 'headerForm'),
		).toBe('basicRaw');
		expect(formChoice({ headerForm: 'bearer' }, 'headerForm')).toBe('bearer');
		expect(formChoice({ endUserHeaderForm: 'basicUsername' }, 'endUserHeaderForm')).toBe(
			'basicUsername',
		);
	});

	it.each([
		['raw', 'basicRaw'],
		['usernamePassword', 'basicUsername'],
		['bearer', 'bearer'],
	])('on Auto, an earlier Send Master Token As %s stands (%s)', (saved, form) => {
		const choice = formChoice({ headerForm: 'auto', basicAuthStyle: saved }, 'headerForm');
		expect(chosenForm(choice)).toBe(form);
	});

	it('Auto stays Auto when no earlier name chose a form; nothing at all is Auto', () => {
		expect(formChoice({ headerForm: 'auto', basicAuthStyle: 'auto' }, 'headerForm')).toBe('auto');
		expect(formChoice({ headerForm: 'auto', basicAuthStyle: '' }, 'headerForm')).toBe('auto');
		expect(formChoice({}, 'headerForm')).toBe('auto');
		expect(formChoice(undefined, 'endUserHeaderForm')).toBe('auto');
	});

	it("the earlier name is read for the credential's own token only", () => {
		expect(formChoice({ basicAuthStyle: 'raw' }, 'endUserHeaderForm')).toBe('auto');
		expect(formChoice({ basicAuthStyle: 'raw' }, 'headerForm')).toBe('raw');
	});
});

it('chosenForm: the values written now and the two an earlier release saved; anything else is Auto', () => {
	expect(
		['bearer', 'basicUsername', 'basicRaw', 'usernamePassword', 'raw'].map(chosenForm),
	).toEqual(['bearer', 'basicUsername', 'basicRaw', 'basicUsername', 'basicRaw']);
	expect(['auto', '', undefined, 'Bearer'].map(chosenForm)).toEqual([
		undefined,
		undefined,
		undefined,
		undefined,
	]);
});
