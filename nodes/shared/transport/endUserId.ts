import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext } from './callOptions';
import { parameter } from './partnerCredential';
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
	// The editor resolves expressions before a picker runs, and sends what they gave. An expression
	// with no input data to read (e.g. {{ $json.customerId }} before the previous node ran) fails to
	// resolve and arrives as nothing (null, or no value at all); an empty field arrives as '' and is
	// reported as empty, like any other empty value. The picker shows only the message.
	if (place === 'editor' && (raw === null || raw === undefined)) {
		throw fail(
			'has no value here (an expression has no input data in the editor). To browse, type a fixed End User ID, or run the previous node and then close and reopen this node.',
			'Type a fixed End User ID to browse (switch back to the expression afterwards), or run the previous node so the expression has input data, then close and reopen this node: n8n loads option lists when a node opens',
		);
	}
	if ('problem' in checked) throw fail(checked.problem);
	return checked.id;
}

/**
 * End User ID per item, checked. Read once per item while executing: every call of the item asks
 * for it, and n8n evaluates an expression in an isolated VM each time it is read (a sixth of a
 * worker's busy CPU in a fleet change when it was read per call). In the editor it is read each
 * time, as the panel's value may have changed.
 */
export class EndUserIds {
	private readonly read = new Map<number, string>();

	private readonly place: EndUserIdPlace;

	constructor(
		private readonly ctx: ApiContext,
		private readonly node: INode,
	) {
		this.place =
			'getCurrentNodeParameter' in ctx ? 'editor' : 'getInputData' in ctx ? 'node' : 'trigger';
	}

	of(itemIndex: number | undefined): string {
		if (this.place === 'editor') return this.readNow(itemIndex);
		const key = itemIndex ?? 0;
		let id = this.read.get(key);
		if (id === undefined) {
			id = this.readNow(itemIndex);
			this.read.set(key, id);
		}
		return id;
	}

	private readNow(itemIndex: number | undefined): string {
		// In the editor, nothing (an expression n8n could not resolve) stays apart from '' (empty).
		const empty = this.place === 'editor' ? null : '';
		const raw = parameter(this.ctx, 'endUserId', itemIndex, empty);
		return checkedEndUserId(this.node, raw, this.place, itemIndex);
	}
}
