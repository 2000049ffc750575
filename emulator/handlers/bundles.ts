/** Endpoints 9–10: read and change the field values of bundle steps. */
import { ApiError, type FieldError } from '../errors';
import type { FieldRecord } from '../types';
import { isPlainObject, nowIso, ownBundle, ownBundleStep, type Handler } from './context';

const LIST_REF = /^\{%\d+:[^%]*%\}$/;

/** GET /bundle/data?filter[bundleId]=N → the bundle's step records. Unknown or foreign bundle → 404. */
export const bundleData: Handler = (ctx) => {
	const filter = ctx.query.filter;
	const raw = isPlainObject(filter) ? filter.bundleId : undefined;
	if (raw === undefined)
		throw new ApiError(422, [{ field: 'filter[bundleId]', message: 'is required' }]);
	if (typeof raw !== 'string' || !/^\d+$/.test(raw))
		throw new ApiError(422, [{ field: 'filter[bundleId]', message: 'must be an integer' }]);
	const bundle = ownBundle(ctx, Number(raw));
	const records = bundle.stepIds.map((stepId) => {
		const step = ctx.state.bundleData.get(stepId)!;
		const data =
			ctx.variants.fieldsShape === 'map'
				? Object.fromEntries(step.fields.map(({ name, value }) => [name, structuredClone(value)]))
				: step.fields.map(({ name, label, value }) => ({
						name,
						label,
						value: structuredClone(value),
					}));
		return { id: step.id, bundleId: step.bundleId, title: step.title, data };
	});
	return {
		data:
			ctx.variants.bundleDataShape === 'map'
				? Object.fromEntries(records.map((r) => [String(r.id), r]))
				: records,
	};
};

/** Per field type: whether a value fits it, and what the service says when it does not. */
const VALUE_CHECKS: Record<FieldRecord['type'], [(value: unknown) => boolean, string]> = {
	string: [(v) => typeof v === 'string', 'must be a string'],
	number: [(v) => typeof v === 'number' && Number.isFinite(v), 'must be a number'],
	boolean: [(v) => typeof v === 'boolean', 'must be a boolean'],
	listRef: [
		(v) => typeof v === 'string' && LIST_REF.test(v),
		'must be a list reference like {%12:345%}',
	],
	list: [Array.isArray, 'must be a list'],
	object: [isPlainObject, 'must be an object'],
};

function checkValue(field: FieldRecord, value: unknown): string | undefined {
	if (value === null) return field.nullable ? undefined : 'must not be null';
	const [fits, problem] = VALUE_CHECKS[field.type];
	return fits(value) ? undefined : problem;
}

/** PUT /bundle/data/{stepId} {data: {code: value}}: only while the installation is paused; all-or-nothing. */
export const updateBundleData: Handler = (ctx) => {
	const { step, installation } = ownBundleStep(ctx, ctx.id);
	if (installation.status === 1) {
		throw new ApiError(
			Number(ctx.variants.activeRefusal),
			`Installation ${installation.id} is active: pause the installation first, then change field values`,
		);
	}
	const data = (ctx.body as Record<string, unknown>).data;
	if (!isPlainObject(data))
		throw new ApiError(422, [
			{ field: 'data', message: 'is required: an object mapping field codes to new values' },
		]);
	const entries = Object.entries(data);
	if (entries.length === 0)
		throw new ApiError(422, [{ field: 'data', message: 'must name at least one field' }]);
	const errors: FieldError[] = [];
	for (const [code, value] of entries) {
		const field = step.fields.find((f) => f.name === code);
		const problem = field
			? checkValue(field, value)
			: `unknown field code; this step has: ${step.fields.map((f) => f.name).join(', ')}`;
		if (problem) errors.push({ field: `data.${code}`, message: problem });
	}
	if (errors.length) throw new ApiError(422, errors);
	for (const [code, value] of entries)
		step.fields.find((f) => f.name === code)!.value = structuredClone(
			value,
		) as FieldRecord['value'];
	installation.dateUpdated = nowIso();
	return { data: { id: step.id } };
};
