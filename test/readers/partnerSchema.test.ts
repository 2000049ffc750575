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

	it('reads the fields under `credentials`, and types sent as words', () => {
		const fields = [
			{ id: 'apiKey', type: 'password', label: 'API key', required: true },
			{ id: 'region', type: 'select', allowedValues: { eu: 'Europe' } },
			{ id: 'note', type: 'text' },
			{ id: 'odd', type: 'colour' },
		];
		const expected = [
			['apiKey', 3, true],
			['region', 10, false],
			['note', 0, false],
			['odd', 0, false],
		];
		const read = (data: unknown) =>
			normalizeSchema(data).map((field) => [field.id, field.type, field.secret]);
		expect(read({ credentials: { fields } })).toEqual(expected);
		expect(read({ credentials: fields })).toEqual(expected);
		expect(read({ fields })).toEqual(expected);
		// A map keyed by field ids may have a field called "credentials": it stays a field.
		expect(read({ credentials: { type: 3, label: 'Credentials' }, region: { type: 0 } })).toEqual([
			['credentials', 3, true],
			['region', 0, false],
		]);
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
