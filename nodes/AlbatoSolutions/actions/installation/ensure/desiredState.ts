/**
 * What one item of Installation → Ensure asks for: given parameter by parameter, or as a snapshot
 * (Desired State → Snapshot (JSON)); read and checked before any request.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { ACTIVE, PAUSED } from '../../../../shared/readers/shapes';
import type { AlbatoClient } from '../../../../shared/transport/client';
import { toObject } from '../../objectParameters';
import {
	type InstallInput,
	type InstallOptions,
	lostAnswerCheck,
	readInstallInput,
} from '../../safeInstall/installInput';
import { type DesiredField, readDesiredFields } from './desiredFields';
import { readSnapshot } from './snapshot';

interface DesiredState {
	/** Solution, title and what installing it again takes. */
	input: InstallInput;
	fields: DesiredField[];
	/** The status it must end in: ACTIVE, PAUSED, or undefined to leave it as it is. */
	status: number | undefined;
	/** False for a snapshot without connection settings: it converges, but cannot install again. */
	canInstall: boolean;
}

/** One item's Ensure: who runs it and what it asks for. */
export interface EnsureItem {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	itemIndex: number;
	desired: DesiredState;
}

const WANTED = { active: ACTIVE, paused: PAUSED } as const;
const statusWanted = (name: string): number | undefined => WANTED[name as keyof typeof WANTED];

/** One item's Ensure, read and checked before any request. */
export function readEnsureItem(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
): EnsureItem {
	const desired: DesiredState =
		ctx.getNodeParameter('desiredStateMode', itemIndex, 'parameters') === 'snapshot'
			? fromSnapshot(ctx, itemIndex)
			: {
					input: readInstallInput(ctx, itemIndex),
					fields: readDesiredFields(ctx, itemIndex),
					status: statusWanted(
						ctx.getNodeParameter('desiredStatus', itemIndex, 'active') as string,
					),
					canInstall: true,
				};
	return { ctx, client, itemIndex, desired };
}

/** Ensure's input from a snapshot, checked before any request. */
function fromSnapshot(ctx: IExecuteFunctions, itemIndex: number): DesiredState {
	const state = readSnapshot(
		ctx,
		ctx.getNodeParameter('snapshot', itemIndex, '') as unknown,
		itemIndex,
	);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as InstallOptions;
	const settings =
		state.settings ??
		(options.settings === undefined
			? undefined
			: toObject(ctx, options.settings, 'Settings', itemIndex));
	return {
		input: {
			solutionId: state.solutionId,
			title: state.title,
			choices: state.connectionSettings ?? {},
			templateIds: state.templateIds,
			settings,
			checkWindow: lostAnswerCheck(ctx, options.lostAnswerCheck, itemIndex),
			options,
		},
		fields: state.desired,
		status: statusWanted(state.status),
		canInstall: state.connectionSettings !== undefined,
	};
}
