/**
 * What one item of Installation → Upgrade asks for, read and checked before any request: which way
 * (upgrade or roll back), the current solution, the target (Create's solution, title, connection
 * settings and templates) and the renamed fields.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { AlbatoClient } from '../../../../shared/transport/client';
import { objectParameter } from '../../objectParameters';
import { idParameter, oneOf } from '../../params';
import { type InstallInput, readInstallInput } from '../../safeInstall/installInput';

export type Direction = 'upgrade' | 'rollBack';

export interface UpgradeItem {
	ctx: IExecuteFunctions;
	client: AlbatoClient;
	itemIndex: number;
	direction: Direction;
	/** The solution the customer is on now (the upgrade's source; Roll Back's target). */
	fromSolutionId: number;
	/** The target solution, the title both installations share, and what installing it takes. */
	input: InstallInput;
	/** Old field code → new field code (Roll Back reads it backwards). */
	renames: Record<string, string>;
	/** Preview: the same reads and checks, nothing installed, put, paused or started. */
	preview: boolean;
}

export function readUpgradeItem(
	ctx: IExecuteFunctions,
	client: AlbatoClient,
	itemIndex: number,
	preview: boolean,
): UpgradeItem {
	const direction = oneOf(
		ctx,
		ctx.getNodeParameter('direction', itemIndex, 'upgrade'),
		'Direction',
		{ allowed: ['upgrade', 'rollBack'] as const, fallback: 'upgrade' },
		itemIndex,
	);
	const fromSolutionId = idParameter(ctx, 'fromSolutionId', 'Current Solution', itemIndex);
	const input = readInstallInput(ctx, itemIndex);
	if (input.solutionId === fromSolutionId)
		throw new NodeOperationError(
			ctx.getNode(),
			`Current Solution and Solution are both ${fromSolutionId}: an upgrade moves a customer to another solution`,
			{
				itemIndex,
				description:
					'Nothing was sent. Set Current Solution to the one the customer is on, and Solution to its new version.',
			},
		);
	return {
		ctx,
		client,
		itemIndex,
		direction,
		fromSolutionId,
		input,
		renames: renamesParameter(ctx, itemIndex),
		preview,
	};
}

/** Renamed Fields (JSON): old code → new code, every value a non-empty text, no code twice. */
function renamesParameter(ctx: IExecuteFunctions, itemIndex: number): Record<string, string> {
	const label = 'Renamed Fields (JSON)';
	const raw = objectParameter(ctx, 'fieldRenames', label, itemIndex);
	const seen = new Set<string>();
	for (const [from, to] of Object.entries(raw)) {
		const problem =
			typeof to !== 'string' || to.trim() === ''
				? `"${from}" must map to a field code (text)`
				: seen.has(to)
					? `two fields are renamed to "${to}"`
					: undefined;
		if (problem)
			throw new NodeOperationError(ctx.getNode(), `${label} (item ${itemIndex}): ${problem}`, {
				itemIndex,
				description:
					'Nothing was sent. Give each renamed field as "old code": "new code", e.g. {"subject": "mailSubject"}.',
			});
		seen.add(to as string);
	}
	return raw as Record<string, string>;
}
