/**
 * The probe's solution part: a solution's connection settings (GET …/credentialists: the values'
 * shape, and whether nested steps sit under the step or the value) and its template keys.
 */
import { unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import type { Probe } from './context';
import { isObject, keys, LIST_KEYS, listOf, type Json } from './shapes';

type Step = Record<string, unknown>;

/** The settings and templates of one solution; told as unknown when none is listed. */
export async function probeSolution(probe: Probe, solutionId: string | undefined): Promise<void> {
	if (!solutionId) return probe.unknown('credentialists', 'no solution listed');
	const path = `/solution/${encodeURIComponent(solutionId)}`;
	const steps = stepsOf(unwrapEnvelope((await probe.get(`${path}/credentialists`)).body));
	probe.say('credentialist step keys', keys(steps[0]));
	probeValues(probe, steps);
	await probeNested(probe, path, steps);
	const templates = await probe.get(`${path}/templates`);
	const list = listOf(unwrapEnvelope(templates.body), 'templates', probe.unknown);
	probe.say('template keys', keys(list.filter(isObject)[0]));
}

function probeValues({ say, unknown, variants }: Probe, steps: Step[]): void {
	const shapes = new Set(steps.map((step) => valuesShape(step.values)));
	const shape = [...shapes][0];
	if (shapes.size !== 1 || shape === 'unknown' || shape === 'empty')
		return unknown('credentialist values', shapes.size ? [...shapes].join(' / ') : 'no steps seen');
	if (shape === 'plain') variants.plainValues = true;
	else variants.valuesShape = shape;
	say(
		'credentialist values',
		shape === 'plain'
			? 'plain strings'
			: shape === 'map'
				? '{id: title} map'
				: `[{${shape.replace(/([A-Z])/, ',$1').toLowerCase()}}]`,
	);
}

/** Chooses the first value of each top-level step (at most 3 calls) until nested steps show. */
async function probeNested(probe: Probe, path: string, steps: Step[]): Promise<void> {
	let nested = nestedPlace(steps);
	for (const step of steps.slice(0, 3)) {
		if (nested) break;
		const value = firstValue(step.values);
		if (value === undefined) continue;
		const query = `credentialData%5B${encodeURIComponent(String(step.id))}%5D=${encodeURIComponent(String(value))}`;
		const answer = await probe.get(`${path}/credentialists?${query}`);
		nested = nestedPlace(stepsOf(unwrapEnvelope(answer.body)));
	}
	if (!nested)
		return probe.unknown('nested steps', 'none seen for the first value of the first steps');
	probe.variants.nestedUnder = nested;
	probe.say('nested steps', `under the ${nested}`);
}

function stepsOf(value: Json): Step[] {
	if (Array.isArray(value)) return value.filter(isObject);
	if (isObject(value)) {
		for (const key of [...LIST_KEYS, 'steps'])
			if (Array.isArray(value[key])) return (value[key] as unknown[]).filter(isObject);
	}
	return [];
}

type ValuesShape = 'valueTitle' | 'idTitle' | 'idValue' | 'map' | 'plain' | 'empty' | 'unknown';

function valuesShape(values: unknown): ValuesShape {
	if (isObject(values))
		return Object.values(values).every((v) => typeof v === 'string') ? 'map' : 'unknown';
	if (!Array.isArray(values)) return 'unknown';
	if (values.length === 0) return 'empty';
	const first = values[0];
	if (!isObject(first)) return 'plain';
	if ('value' in first && 'title' in first) return 'valueTitle';
	if ('id' in first && 'title' in first) return 'idTitle';
	if ('id' in first && 'value' in first) return 'idValue';
	return 'unknown';
}

function firstValue(values: unknown): unknown {
	if (isObject(values)) return Object.keys(values)[0];
	if (!Array.isArray(values) || values.length === 0) return undefined;
	const first = values[0];
	if (!isObject(first)) return first;
	return 'value' in first && ('title' in first || !('id' in first)) ? first.value : first.id;
}

function nestedPlace(steps: Step[]): 'step' | 'value' | undefined {
	for (const step of steps) {
		if (Array.isArray(step.nested) && step.nested.length > 0) return 'step';
		if (
			Array.isArray(step.values) &&
			step.values.some((v) => isObject(v) && Array.isArray(v.nested) && v.nested.length > 0)
		)
			return 'value';
	}
	return undefined;
}
