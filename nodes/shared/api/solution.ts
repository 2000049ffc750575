import type { IDataObject } from 'n8n-workflow';

import { choicesQuery, resolveChoices, type Resolution } from '../readers/connectionSettings';
import { SETTING_STEP_KEYS, settingStepsOf, type SettingStep } from '../readers/settingSteps';
import { holdsList, listOrMap, withNumericIds } from '../readers/shapes';
import type { AlbatoClient } from '../transport/client';
import { errorSays } from '../transport/errors';
import { segment } from '../transport/wire';

/**
 * GET /solution/apps — the latest published version of each solution (a list, wrapped, or keyed by
 * id; ids as numbers).
 */
export async function listSolutions(
	client: AlbatoClient,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return listOrMap(
		await client.requestList('/solution/apps', { itemIndex, what: 'solutions' }),
	).map((solution) => withNumericIds(solution));
}

/**
 * GET /solution/{id}/templates — the solution's templates (the automations it installs; a list,
 * wrapped, or keyed by id).
 */
export async function solutionTemplates(
	client: AlbatoClient,
	solutionId: number | string,
	itemIndex?: number,
): Promise<IDataObject[]> {
	return listOrMap(
		await client.requestList(`/solution/${segment(solutionId)}/templates`, {
			itemIndex,
			what: 'templates',
		}),
	).map((template) => withNumericIds(template));
}

/** What a credentialists answer must hold: the steps (a list, possibly empty), bare or wrapped. */
const SETTING_STEPS = {
	what: 'connection settings',
	holds: (data: unknown) => holdsList(data, SETTING_STEP_KEYS),
};

/**
 * One GET /solution/{id}/credentialists for these choices: the steps it shows (the mapper's probe
 * of what a value opens; fetchConnectionSettings is the walk that resolves choices).
 */
export async function connectionSettingSteps(
	client: AlbatoClient,
	solutionId: number,
	choices: IDataObject,
): Promise<SettingStep[]> {
	return settingStepsOf(
		await client.request('GET', `/solution/${segment(solutionId)}/credentialists`, {
			query: choicesQuery(choices),
			expect: SETTING_STEPS,
		}),
		choices,
	);
}

// Connection settings nest a few levels; a bound keeps a misbehaving service from looping us.
const MAX_ROUNDS = 10;

/**
 * Fetches the connection-settings tree for the choices made, auto-selecting single-valued steps
 * if asked (each auto-selection may reveal a further level, hence the loop). One request when the
 * choices are right; when the service refuses them, the tree is walked level by level with only the
 * choices known to be valid, so the error can name the wrong step and what it offers.
 */
export async function fetchConnectionSettings(
	client: AlbatoClient,
	solutionId: number,
	choices: IDataObject,
	options: { autoSelectSingle?: boolean; itemIndex?: number } = {},
): Promise<{ steps: SettingStep[]; resolution: Resolution }> {
	const path = `/solution/${segment(solutionId)}/credentialists`;
	const fetchSteps = async (sent: IDataObject) =>
		settingStepsOf(
			await client.request('GET', path, {
				query: choicesQuery(sent),
				itemIndex: options.itemIndex,
				expect: SETTING_STEPS,
			}),
			// Nested steps listed under each value: those of the values sent, as the documented layout
			// shows.
			sent,
		);
	let sent = { ...choices };
	const auto: IDataObject = {};
	let refused = false;
	for (let round = 0; ; round++) {
		let steps: SettingStep[];
		try {
			steps = await fetchSteps(sent);
		} catch (error) {
			const rejected = errorSays(error, 'rejectsValues');
			if (refused || Object.keys(sent).length === 0 || !rejected) throw error as Error;
			// Start again from the top, sending only what each level shows to be valid.
			refused = true;
			sent = {};
			continue;
		}
		const resolution = resolveChoices(steps, { ...choices, ...auto }, options);
		for (const id of resolution.autoSelected) auto[id] = resolution.credentialData[id];
		const reached = resolution.credentialData;
		// Done when every valid choice reached was already sent: the tree shows all it can.
		if (Object.keys(reached).every((id) => id in sent) || round >= MAX_ROUNDS) {
			return { steps, resolution: { ...resolution, autoSelected: Object.keys(auto) } };
		}
		sent = { ...reached };
	}
}
