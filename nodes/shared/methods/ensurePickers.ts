/**
 * Installation → Ensure's Field Values pickers: the steps and fields of the chosen automation
 * (template). Ensure works before the installation exists, so they are read from wherever the
 * service shows them, and every option says which:
 *  1. the end user's installation of the solution with exactly Ensure's title (the one Ensure
 *     changes);
 *  2. else the template's parameters, when they list its steps and fields;
 *  3. else another installation of the solution made from the same template.
 * Steps are offered by title (an ID differs from one installation to the next), fields by code.
 */
import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundleData } from '../api/bundleData';
import { getInstallation, listInstallations } from '../api/installation';
import { bundlesOf, stepsOf } from '../readers/bundles';
import { solutionTemplates } from '../api/solution';
import {
	type FieldEntry,
	fieldsOf,
	idOf,
	isObject,
	listOrMap,
	sameId,
	solutionIdOf,
} from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { keepingSaved } from './keepSaved';
import { load } from './load';
import { parentId } from './parent';

interface SourceStep {
	/** What Ensure's Step takes: the title, or the ID when the title is empty or shared. */
	key: string;
	title: string;
	fields: FieldEntry[];
}

interface Source {
	/** e.g. `installation "Leads for ACME" (5001)`. */
	from: string;
	steps: SourceStep[];
}

/**
 * A sibling parameter of the same Field Values entry (`&automation`), or a top-level one; '' when
 * unset.
 */
function current(ctx: ILoadOptionsFunctions, name: string): string {
	try {
		const value = ctx.getCurrentNodeParameter(name) as unknown;
		if (typeof value === 'number') return String(value);
		return typeof value === 'string' && !value.startsWith('=') ? value.trim() : '';
	} catch {
		return '';
	}
}

const short = (value: unknown) => {
	if (value === undefined || value === null || value === '') return 'empty';
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	return text.length > 40 ? `${text.slice(0, 37)}…` : text;
};

/** Steps keyed as Ensure takes them: by title, or by ID when the title is empty or shared. */
function keyed(steps: Array<{ id: unknown; title: string; fields: FieldEntry[] }>): SourceStep[] {
	return steps.map((step) => ({
		key:
			step.title !== '' && steps.filter((other) => other.title === step.title).length === 1
				? step.title
				: String(idOf(step.id) ?? step.id),
		title: step.title,
		fields: step.fields,
	}));
}

/** An installation's automation made from the template: its steps with their fields. */
async function fromInstallation(
	client: AlbatoClient,
	installationId: unknown,
	automation: string,
): Promise<{ title: string; steps: SourceStep[] } | undefined> {
	const installation = await getInstallation(client, String(installationId), {
		withBundles: true,
		withStatus: false,
	});
	const bundle = bundlesOf(installation).find(
		(candidate) =>
			sameId(candidate.templateId, automation) ||
			sameId(candidate.id, automation) ||
			String(candidate.title ?? '') === automation,
	);
	if (!bundle) return undefined;
	const titles = new Map(
		stepsOf(bundle).map((step) => [String(idOf(step.id)), String(step.title ?? '').trim()]),
	);
	const records = await bundleData(client, String(bundle.id));
	return {
		title: String(installation.title ?? ''),
		steps: keyed(
			records.map((record) => ({
				id: record.id,
				title: titles.get(String(idOf(record.id))) || String(record.title ?? '').trim(),
				fields: fieldsOf(record.data),
			})),
		),
	};
}

/**
 * Steps and fields the template's parameters list, if they list any (the spec leaves their layout
 * open).
 */
function fromTemplate(template: IDataObject | undefined): SourceStep[] {
	if (!template) return [];
	const params = isObject(template.params)
		? template.params
		: isObject(template.parameters)
			? template.parameters
			: {};
	const steps = listOrMap(template.steps ?? params.steps)
		.map((step) => ({
			id: step.id,
			title: String(step.title ?? step.name ?? '').trim(),
			fields: fieldsOf(step.fields ?? step.data),
		}))
		.filter((step) => step.fields.length > 0);
	return keyed(steps);
}

/** Where the chosen automation's steps can be read for this end user, in the order above. */
async function sourceOf(
	ctx: ILoadOptionsFunctions,
	client: AlbatoClient,
	solutionId: number,
	automation: string,
): Promise<Source> {
	const title = current(ctx, 'title');
	// A list that does not say the solution (only id and title): its detail tells, through the
	// template.
	const ofSolution = (await listInstallations(client)).filter((installation) => {
		const solution = solutionIdOf(installation);
		return solution === undefined || sameId(solution, solutionId);
	});
	const own = ofSolution.filter((installation) => title !== '' && installation.title === title);
	for (const installation of own) {
		const found = await fromInstallation(client, installation.id, automation);
		if (found)
			return {
				from: `installation "${found.title}" (${String(installation.id)})`,
				steps: found.steps,
			};
	}
	const template = (await solutionTemplates(client, solutionId)).find(
		(candidate) => sameId(candidate.id, automation) || String(candidate.title ?? '') === automation,
	);
	const listed = fromTemplate(template);
	if (listed.length) return { from: "the template's parameters", steps: listed };
	for (const installation of ofSolution.filter((other) => !own.includes(other))) {
		const found = await fromInstallation(client, installation.id, automation);
		if (found)
			return {
				from: `another installation of the solution, "${found.title}" (${String(installation.id)})`,
				steps: found.steps,
			};
	}
	// n8n shows only the message of an option list's error: what to type, and where, is in it.
	throw new NodeOperationError(
		ctx.getNode(),
		`No installation of solution ${solutionId} has automation ${automation} yet, so its steps and fields cannot be listed (Albato shows them only in an installation). Type them instead: switch Step to Expression and type the step's title as your automation in Albato names it, and Field to Expression and type the field's label as the step shows it (or its code). If one is wrong, Ensure's error after it installed names the steps or fields there are, and these lists fill once the installation exists.`,
		{
			description:
				"The service shows an automation's steps and fields only in an installation, and this template's parameters do not list them.",
		},
	);
}

export const ensurePickers = {
	/**
	 * Ensure → Field Values → Step: the steps of the chosen automation, saying where they were read.
	 */
	async getEnsureSteps(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const solutionId = parentId(this, 'solutionId');
		const automation = current(this, '&automation');
		if (!solutionId || !automation) return [];
		const list = async () =>
			await load(this, 'the steps', async (client) => {
				const source = await sourceOf(this, client, solutionId, automation);
				return source.steps.map((step) => ({
					name: step.title || `Step ${step.key}`,
					value: step.key,
					description: `Fields: ${step.fields.map((field) => field.label).join(', ') || 'none'}. From ${source.from}.`,
				}));
			});
		return await keepingSaved(this, '&step', list);
	},

	/**
	 * Ensure → Field Values → Field: the fields of the chosen step by code, labelled, with their
	 * value there.
	 */
	async getEnsureFields(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const solutionId = parentId(this, 'solutionId');
		const automation = current(this, '&automation');
		const stepKey = current(this, '&step');
		if (!solutionId || !automation || !stepKey) return [];
		const list = async () =>
			await load(this, 'the fields', async (client) => {
				const source = await sourceOf(this, client, solutionId, automation);
				const step = source.steps.find(
					(candidate) => candidate.key === stepKey || candidate.title === stepKey,
				);
				if (!step)
					throw new NodeOperationError(
						this.getNode(),
						`No step "${stepKey}" in automation ${automation} (read from ${source.from})`,
						{ description: `Its steps: ${source.steps.map((other) => other.key).join(', ')}` },
					);
				// A Field typed as its label (as Step's message advises) is that field's value here, so
				// the editor shows "Subject (subject)" instead of red; Ensure takes a unique label too.
				const typed = current(this, '&code');
				const byLabel = step.fields.filter((field) => field.label === typed);
				const typedLabel = (field: (typeof step.fields)[number]) =>
					typed !== field.name && byLabel.length === 1 && byLabel[0] === field;
				return step.fields.map((field) => ({
					name: field.label === field.name ? field.name : `${field.label} (${field.name})`,
					value: typedLabel(field) ? typed : field.name,
					description: `Now ${short(field.value)} in ${source.from}`,
				}));
			});
		return await keepingSaved(this, '&code', list);
	},
};
