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

function checkValue(field: FieldRecord, value: unknown): string | undefined {
	if (value === null) return field.nullable ? undefined : 'must not be null';
	switch (field.type) {
		case 'string':
			return typeof value === 'string' ? undefined : 'must be a string';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
		case 'boolean':
			return typeof value === 'boolean' ? undefined : 'must be a boolean';
		case 'listRef':
			return typeof value === 'string' && LIST_REF.test(value)
				? undefined
				: 'must be a list reference like {%12:345%}';
		case 'list':
			return Array.isArray(value) ? undefined : 'must be a list';
		case 'object':
			return isPlainObject(value) ? undefined : 'must be an object';
	}
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
