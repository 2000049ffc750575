/** Endpoints 1–4: solutions, connection settings, templates, install. */
import { ApiError, notFound, type FieldError } from '../errors';
import {
	CREDENTIALISTS,
	latestPublished,
	SOLUTIONS,
	templatesOf,
	type StepFixture,
} from '../fixtures';
import { recordsOf } from '../indexedMap';
import { addBundle } from '../state';
import { assertNotBlocked } from './billing';
import { offerConnections } from './links';
import { wrapInstallation } from '../render';
import type { InstallationRecord, Variants } from '../types';
import { isPlainObject, nowIso, type Handler, type HandlerContext } from './context';
import { renderInstallation, renderSolution, renderTemplate } from './views';

/** Only solutions with a published version exist for end users. */
function listedSolution(id: number): number {
	if (!latestPublished(id)) throw notFound(`Solution ${id}`);
	return id;
}

export const listApps: Handler = () => ({
	data: SOLUTIONS.filter((s) => latestPublished(s.id)).map((s) => renderSolution(s.id)),
});

export const listTemplates: Handler = (ctx) => ({
	data: templatesOf(listedSolution(ctx.id)).map(renderTemplate),
});

// ------------------------------------------------------ connection settings

/** Every step id of a solution's tree, nested ones included. */
function allSteps(
	steps: StepFixture[],
	out = new Map<string, StepFixture>(),
): Map<string, StepFixture> {
	for (const step of steps) {
		out.set(step.id, step);
		for (const v of step.values) allSteps(v.nested ?? [], out);
	}
	return out;
}

/** A step's values in the variant's shape; nested steps of the chosen value under it when `nestedUnder` is 'value'. */
function renderValues(
	step: StepFixture,
	choices: Record<string, unknown>,
	variants: Variants,
): unknown {
	if (variants.plainValues) return step.values.map((v) => v.value);
	if (variants.valuesShape === 'map')
		return Object.fromEntries(step.values.map((v) => [v.value, v.title]));
	return step.values.map((v) => {
		const out: Record<string, unknown> =
			variants.valuesShape === 'idTitle'
				? { id: v.value, title: v.title }
				: variants.valuesShape === 'idValue'
					? { id: v.value, value: v.title }
					: { value: v.value, title: v.title };
		if (variants.nestedUnder === 'value')
			out.nested =
				v.value === choices[step.id] ? renderSteps(v.nested ?? [], choices, variants) : [];
		return out;
	});
}

/** Nested steps sit under each value only when values are objects: plain strings and maps have no room for them. */
const nestedUnderValues = (variants: Variants) =>
	variants.nestedUnder === 'value' && !variants.plainValues && variants.valuesShape !== 'map';

function renderSteps(
	steps: StepFixture[],
	choices: Record<string, unknown>,
	variants: Variants,
): unknown[] {
	return steps.map((step) => {
		const chosen = step.values.find((v) => v.value === choices[step.id]);
		const out: Record<string, unknown> = {
			id: step.id,
			title: step.title,
			values: renderValues(step, choices, variants),
		};
		if (!nestedUnderValues(variants))
			out.nested = chosen ? renderSteps(chosen.nested ?? [], choices, variants) : [];
		return out;
	});
}

const offered = (step: StepFixture) => step.values.map((v) => v.value).join(', ');

/** GET /solution/{id}/credentialists: data = array of top-level steps; nested steps of chosen values filled in. */
export const credentialists: Handler = (ctx) => {
	const steps = offerConnections(CREDENTIALISTS[listedSolution(ctx.id)], ctx.state, ctx.user);
	const choices = ctx.query.credentialData ?? {};
	if (!isPlainObject(choices))
		throw new ApiError(422, [
			{ field: 'credentialData', message: 'must be given as credentialData[<stepId>]=<value>' },
		]);
	const known = allSteps(steps);
	const errors: FieldError[] = [];
	for (const [stepId, value] of Object.entries(choices)) {
		const step = known.get(stepId);
		if (!step)
			errors.push({ field: `credentialData[${stepId}]`, message: `unknown step "${stepId}"` });
		else if (!step.values.some((v) => v.value === value))
			errors.push({
				field: `credentialData[${stepId}]`,
				message: `"${String(value)}" is not offered; choose one of: ${offered(step)}`,
			});
	}
	if (errors.length) throw new ApiError(422, errors);
	return { data: renderSteps(steps, choices, ctx.variants) };
};

/** Checks credentialData is complete: every reachable step, nested included, has one of its own values, and nothing else. */
function validateCredentialData(steps: StepFixture[], data: Record<string, unknown>): FieldError[] {
	const errors: FieldError[] = [];
	const reached = new Set<string>();
	const walk = (level: StepFixture[]) => {
		for (const step of level) {
			reached.add(step.id);
			const field = `credentialData.${step.id}`;
			const value = data[step.id];
			if (value === undefined || value === null || value === '') {
				errors.push({ field, message: `is required; choose one of: ${offered(step)}` });
				continue;
			}
			// A connection is offered as "<credentialId>"; its id as a number is accepted too.
			const chosen = step.values.find(
				(v) => v.value === value || (typeof value === 'number' && v.value === String(value)),
			);
			if (!chosen) {
				errors.push({
					field,
					message: `${JSON.stringify(value)} is not offered; choose one of: ${offered(step)}`,
				});
				continue;
			}
			walk(chosen.nested ?? []);
		}
	};
	walk(steps);
	const known = allSteps(steps);
	for (const key of Object.keys(data)) {
		if (reached.has(key)) continue;
		errors.push({
			field: `credentialData.${key}`,
			message: known.has(key)
				? 'does not apply to the values chosen for its parent steps'
				: 'unknown step',
		});
	}
	return errors;
}

function validateInstall(ctx: HandlerContext, solutionId: number): FieldError[] {
	const body = ctx.body as Record<string, unknown>;
	const { title, templateIds, credentialData, settings } = body;
	const errors: FieldError[] = [];
	const problem = titleProblem(title);
	if (problem) errors.push({ field: 'title', message: problem });
	const templates = templatesProblem(templateIds, solutionId);
	if (templates) errors.push({ field: 'templateIds', message: templates });

	if (credentialData === undefined || credentialData === null)
		errors.push({ field: 'credentialData', message: 'is required' });
	else if (!isPlainObject(credentialData))
		errors.push({
			field: 'credentialData',
			message: 'must be an object mapping step ids to values',
		});
	else
		errors.push(
			...validateCredentialData(
				offerConnections(CREDENTIALISTS[solutionId], ctx.state, ctx.user),
				credentialData,
			),
		);

	if (settings !== undefined && !isPlainObject(settings))
		errors.push({ field: 'settings', message: 'must be an object when given' });
	return errors;
}

function titleProblem(title: unknown): string | undefined {
	if (title === undefined || title === null) return 'is required';
	if (typeof title !== 'string') return 'must be a string';
	if (title.trim() === '') return 'must not be empty';
	if (title.length > 255) return 'must be at most 255 characters';
	return undefined;
}

function templatesProblem(templateIds: unknown, solutionId: number): string | undefined {
	if (templateIds === undefined || templateIds === null) return 'is required';
	if (!Array.isArray(templateIds)) return 'must be an array of integers';
	if (templateIds.length === 0) return 'must not be empty';
	if (!templateIds.every((t) => Number.isInteger(t))) return 'must contain integers only';
	if (new Set(templateIds).size !== templateIds.length) return 'must not repeat a template';
	const ownTemplates = templatesOf(solutionId).map((t) => t.id);
	const foreign = templateIds.filter((t) => !ownTemplates.includes(t as number));
	if (foreign.length)
		return `not templates of solution ${solutionId}: ${foreign.join(', ')} (its templates: ${ownTemplates.join(', ')})`;
	return undefined;
}

/** POST /solution/{id}/installation → 201 with the installation (no bundles, as the detail call without expand). */
export const install: Handler = (ctx) => {
	const solutionId = listedSolution(ctx.id);
	assertNotBlocked(ctx.state, ctx.user);
	const errors = validateInstall(ctx, solutionId);
	if (errors.length) throw new ApiError(422, errors);
	const body = ctx.body as {
		title: string;
		templateIds: number[];
		credentialData: Record<string, string>;
		settings?: Record<string, unknown>;
	};
	const { state } = ctx;
	const now = nowIso();
	const record: InstallationRecord = {
		id: state.nextIds.installation++,
		userId: ctx.user,
		solutionId,
		solutionVersion: latestPublished(solutionId)!.version,
		title: body.title,
		status: ctx.initialStatus,
		settings: structuredClone(body.settings ?? {}),
		credentialData: { ...body.credentialData },
		bundleIds: [],
		dateCreated: now,
		dateUpdated: now,
	};
	state.installations.set(record.id, record);
	state.listLag.created(record.id);
	if (record.status === 1)
		state.activeCopies.started(recordsOf(state.installations, record.userId), record);
	for (const templateId of body.templateIds) {
		const bundleId = state.nextIds.bundle++;
		const template = templatesOf(solutionId).find((t) => t.id === templateId)!;
		const stepIds = template.bundle.steps.map(() => state.nextIds.step++);
		addBundle(state, record.id, templateId, bundleId, stepIds);
		record.bundleIds.push(bundleId);
	}
	return {
		status: 201,
		data: wrapInstallation(
			renderInstallation(ctx, record, new Set(), !ctx.variants.detailWithoutStatus),
			ctx.variants,
		),
	};
};
