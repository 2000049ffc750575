/** How records are rendered in responses (the documented choices for "not shown" fields). */
import { latestPublished, templatesOf, type TemplateFixture } from '../fixtures';
import { renderStatus } from '../render';
import type { InstallationRecord } from '../types';
import type { HandlerContext } from './context';

/** Solution list item (and `app` in the installation detail). */
export function renderSolution(id: number) {
	const v = latestPublished(id)!;
	return {
		id,
		title: v.title,
		version: v.version,
		description: v.description,
		dateUpdated: v.dateUpdated,
	};
}

export const renderTemplate = (t: TemplateFixture) => ({
	id: t.id,
	title: t.title,
	parentAutomation: { ...t.parentAutomation },
	params: structuredClone(t.params),
});

/**
 * An installation. `expand` relations: `app` (the solution), `app.templates` (with its
 * templates), `bundles` (map bundle id → {id, title}), `bundles.steps` (each with steps).
 */
export function renderInstallation(
	ctx: HandlerContext,
	inst: InstallationRecord,
	expand: Set<string>,
	withStatus = true,
) {
	const out: Record<string, unknown> = {
		id: inst.id,
		appId: inst.solutionId,
		solutionId: inst.solutionId,
		solutionVersion: inst.solutionVersion,
		title: inst.title,
		status: renderStatus(inst.status, ctx.variants),
		settings: structuredClone(inst.settings),
		dateCreated: inst.dateCreated,
		dateUpdated: inst.dateUpdated,
	};
	if (!withStatus) delete out.status;
	if (expand.has('app') || expand.has('app.templates')) {
		const app: Record<string, unknown> = renderSolution(inst.solutionId);
		if (expand.has('app.templates'))
			app.templates = templatesOf(inst.solutionId).map(renderTemplate);
		out.app = app;
	}
	if (expand.has('bundles') || expand.has('bundles.steps')) {
		const bundles: Record<string, unknown> = {};
		for (const bundleId of inst.bundleIds) {
			const bundle = ctx.state.bundles.get(bundleId)!;
			const rendered: Record<string, unknown> = {
				id: bundle.id,
				title: bundle.title,
				templateId: bundle.templateId,
			};
			if (expand.has('bundles.steps')) {
				rendered.steps = bundle.stepIds.map((stepId) => ({
					id: stepId,
					title: ctx.state.bundleData.get(stepId)!.title,
				}));
			}
			bundles[String(bundle.id)] = rendered;
		}
		out.bundles = bundles;
	}
	return out;
}
