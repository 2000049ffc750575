import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { checkEndUserId } from './partnerIds';

/**
 * Where End User ID was read: a node executing (per item), a picker in the editor, or the trigger.
 */
type EndUserIdPlace = 'node' | 'editor' | 'trigger';

/**
 * How to fill End User ID: in a node (per item) or in the trigger (no input: fixed or a variable).
 */
const HOW_TO_FILL = {
	node: 'Set End User ID to your own id of the customer, e.g. {{ $json.customerId }}: with the Albato Partner API credential every call acts as that end user',
	trigger:
		'Set End User ID to your own id of the customer: a fixed ID, or a workflow variable such as {{ $vars.albatoEndUserId }} (a trigger has no input, so $json is empty)',
};

/** End User ID as given, checked; the error says what to do where it was read. */
export function checkedEndUserId(
	node: INode,
	raw: unknown,
	place: EndUserIdPlace,
	itemIndex: number | undefined,
): string {
	const fail = (
		problem: string,
		description = HOW_TO_FILL[place === 'trigger' ? 'trigger' : 'node'],
	) => new NodeOperationError(node, `End User ID ${problem}`, { itemIndex, description });
	if (place === 'editor' && typeof raw === 'string' && raw.startsWith('=')) {
		throw fail(
			'is an expression: lists in the editor need a fixed End User ID (type one to browse, then switch back)',
		);
	}
	const checked = checkEndUserId(raw);
	// The editor resolves expressions before a picker runs: one with no input data to read (e.g.
	// {{ $json.customerId }} before the previous node ran) arrives empty. The picker shows only the
	// message, so it says how to browse.
	if (
		place === 'editor' &&
		'problem' in checked &&
		(raw === '' || raw === null || raw === undefined)
	) {
		throw fail(
			'has no value here (an expression has no input data in the editor). To browse, type a fixed End User ID or run the previous node.',
			'Type a fixed End User ID to browse (switch back to the expression afterwards), or run the previous node so the expression has input data',
		);
	}
	if ('problem' in checked) throw fail(checked.problem);
	return checked.id;
}
