/**
 * The partner credential schema reader: normalised fields, values checked against them, secrets
 * masked.
 */
import {
	checkValues,
	maskSecrets,
	normalizeSchema,
} from '../../nodes/shared/readers/partnerSchema';

const schema = normalizeSchema({
	fields: [
		{ id: 'apiUrl', type: 0, label: 'API URL', required: true },
		{ id: 'apiKey', type: 3, label: 'API key', required: true },
		{
			id: 'region',
			type: 10,
			label: 'Region',
			required: false,
			allowedValues: { eu: 'Europe', us: 'United States' },
		},
	],
});

describe('partner schema', () => {
	it('marks secrets and choices', () => {
		expect(schema.map((field) => [field.id, field.secret, field.required])).toEqual([
			['apiUrl', false, true],
			['apiKey', true, true],
			['region', false, false],
		]);
		expect(schema[2].allowedValues).toEqual({ eu: 'Europe', us: 'United States' });
		expect(
			normalizeSchema([{ name: 'x', allowedValues: [{ value: 'a', label: 'A' }] }])[0]
				.allowedValues,
		).toEqual({ a: 'A' });
	});

	it('finds missing, unknown and disallowed values', () => {
		expect(checkValues(schema, { apiUrl: 'https://x', apiKey: 'k', region: 'eu' })).toEqual([]);
		const problems = checkValues(schema, { apiUrl: 'https://x', region: 'mars', extra: 1 });
		expect(problems).toHaveLength(3);
		expect(problems.join(' ')).toMatch(/apiKey.*required/);
		expect(problems.join(' ')).toMatch(/region.*"eu", "us"/);
		expect(problems.join(' ')).toMatch(/extra.*not a field/);
	});

	it('masks secrets at any depth', () => {
		expect(
			maskSecrets(
				{ id: 1, apiKey: 'secret', data: { apiKey: 'secret', apiUrl: 'u' } },
				new Set(['apiKey']),
			),
		).toEqual({
			id: 1,
			apiKey: '[hidden]',
			data: { apiKey: '[hidden]', apiUrl: 'u' },
		});
	});
});
