import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { choicesQuery, describeOffered, normalizeSteps, resolveChoices, type Resolution, type SettingStep } from '../../helpers/connectionSettings';
import type { AlbatoClient } from '../../transport';
import { segment } from '../../transport';

// Connection settings nest a few levels; a bound keeps a misbehaving service from looping us.
const MAX_ROUNDS = 10;

/**
 * Fetches the connection-settings tree for the choices made, auto-selecting single-valued steps
 * if asked (each auto-selection may reveal a further level, hence the loop).
 */
export async function fetchConnectionSettings(
	client: AlbatoClient,
	solutionId: number,
	choices: IDataObject,
	options: { autoSelectSingle?: boolean; itemIndex?: number } = {},
): Promise<{ steps: SettingStep[]; resolution: Resolution }> {
	let current = { ...choices };
	const autoSelected: string[] = [];
	for (let round = 0; ; round++) {
		const data = await client.request('GET', `/solution/${segment(solutionId)}/credentialists`, {
			query: choicesQuery(current),
			itemIndex: options.itemIndex,
		});
		const steps = normalizeSteps(data);
		const resolution = resolveChoices(steps, current, options);
		autoSelected.push(...resolution.autoSelected);
		if (resolution.autoSelected.length === 0 || round >= MAX_ROUNDS) {
			return { steps, resolution: { ...resolution, autoSelected } };
		}
		current = { ...current, ...resolution.credentialData };
	}
}

/** Turns an incomplete or wrong set of choices into one error that names every step and what it offers. */
export function assertComplete(ctx: IExecuteFunctions, resolution: Resolution, itemIndex: number): void {
	const problems = [
		...resolution.invalid.map(({ step, given }) => `step "${step.id}" (${step.title}) does not offer "${String(given)}"; it offers ${describeOffered(step)}`),
		...resolution.missing.map((step) => `step "${step.id}" (${step.title}) has no value; it offers ${describeOffered(step)}`),
		...resolution.unknown.map((id) => `"${id}" is not a step of this solution for the values chosen`),
	];
	if (problems.length === 0) return;
	throw new NodeOperationError(ctx.getNode(), `Connection Settings are incomplete or wrong: ${problems[0]}`, {
		itemIndex,
		description: `Nothing was installed. ${problems.join('. ')}.`,
	});
}
