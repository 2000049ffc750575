import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

import { bundleData } from '../api/bundleData';
import { getInstallation } from '../api/installation';
import { bundlesOf, stepsOf } from '../readers/bundles';
import { solutionTemplates } from '../api/solution';
import { idOf, isObject, sameId } from '../readers/shapes';
import { ensurePickers } from './ensurePickers';
import { keepingSaved } from './keepSaved';
import { load } from './load';
import { parentId } from './parent';
import { getPlans } from './plans';

export const loadOptions = {
	...ensurePickers,
	/** Billing plans with their monthly transactions (methods/plans.ts). */
	getPlans,

	/**
	 * Templates of the chosen solution as "Title (ID)", with the automation each one installs. One
	 * request.
	 */
	async getTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		return await keepingSaved(this, 'templateIds', async () => await templatesOf(this));
	},

	/**
	 * Ensure → Field Values → Automation: the templates chosen in Template Names (all of the
	 * solution's while none is chosen), for one entry.
	 */
	async getEnsureTemplates(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const chosen = chosenTemplates(this);
		const list = async () =>
			(await templatesOf(this)).filter(
				(option) => chosen.length === 0 || chosen.some((id) => sameId(id, option.value)),
			);
		return await keepingSaved(this, '&automation', list);
	},

	/** Automations (bundles) of the chosen installation. One request. */
	async getBundles(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const installationId = parentId(this, 'installationId');
		if (!installationId) return [];
		const list = async () =>
			await load(this, 'the automations', async (client) => {
				const installation = await getInstallation(client, installationId, {
					withBundles: true,
					withStatus: false,
				});
				return bundlesOf(installation).map((bundle) => ({
					name: `${String(bundle.title ?? 'Automation')} (${String(bundle.id)})`,
					value: idOf(bundle.id) as number,
				}));
			});
		return await keepingSaved(this, 'bundleId', list);
	},

	/**
	 * Steps of the chosen automation, with the labels of their fields as a hint. Two requests in
	 * parallel: step titles come with the installation's detail, field labels with the bundle's data
	 * (one request when no installation is chosen).
	 */
	async getSteps(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
		const bundleId = parentId(this, 'bundleId');
		if (!bundleId) return [];
		const installationId = parentId(this, 'installationId');
		const list = async () =>
			await load(this, 'the steps', async (client) => {
				// Both settle before an error is reported: no request is left running behind the picker.
				const [recordsResult, installationResult] = await Promise.allSettled([
					bundleData(client, bundleId),
					installationId
						? getInstallation(client, installationId, { withBundles: true, withStatus: false })
						: Promise.resolve(undefined),
				]);
				if (recordsResult.status === 'rejected') throw recordsResult.reason;
				if (installationResult.status === 'rejected') throw installationResult.reason;
				const [records, installation] = [recordsResult.value, installationResult.value];
				const bundle = installation
					? bundlesOf(installation).find((candidate) => sameId(candidate.id, bundleId))
					: undefined;
				const titles = new Map(
					(bundle ? stepsOf(bundle) : []).map((step) => [
						String(idOf(step.id)),
						String(step.title ?? ''),
					]),
				);
				return records.map((record) => {
					const fields = Array.isArray(record.data) ? record.data.filter(isObject) : [];
					const title =
						titles.get(String(idOf(record.id))) ||
						(record.title ? String(record.title) : `Step ${String(record.id)}`);
					return {
						name: `${title} (${String(record.id)})`,
						value: idOf(record.id) as number,
						description: fields.map((field) => String(field.label ?? field.name)).join(', '),
					};
				});
			});
		return await keepingSaved(this, 'stepId', list);
	},
};

/** The IDs in Template Names (`templateIds`) as the editor holds them now; none when unset. */
function chosenTemplates(ctx: ILoadOptionsFunctions): unknown[] {
	try {
		const value = ctx.getCurrentNodeParameter('templateIds') as unknown;
		return Array.isArray(value) ? value.filter((id) => id !== '' && id !== null) : [];
	} catch {
		return [];
	}
}

/** Templates of the chosen solution as "Title (ID)", with the automation each one installs. */
async function templatesOf(ctx: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const solutionId = parentId(ctx, 'solutionId');
	if (!solutionId) return [];
	return await load(ctx, 'the templates', async (client) => {
		const templates = await solutionTemplates(client, solutionId);
		return templates.map((template) => {
			const parent = isObject(template.parentAutomation) ? template.parentAutomation : undefined;
			const title = String(template.title ?? template.name ?? `Template ${String(template.id)}`);
			// "Title (ID)" as the solutions; the automation it installs named once, in the description.
			const parentName = parent ? String(parent.title ?? 'Automation') : '';
			return {
				name: `${title} (${String(idOf(template.id) ?? template.id)})`,
				value: idOf(template.id) as number,
				description: parent
					? `Parent automation: ${parentName}${parent.id !== undefined ? ` (${String(parent.id)})` : ''}`
					: undefined,
			};
		});
	});
}
