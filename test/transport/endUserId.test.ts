import { checkedEndUserId } from '../../nodes/shared/transport/endUserId';
import { node } from '../support/node';

const failure = (raw: unknown, place: 'node' | 'editor' | 'trigger') => {
	try {
		checkedEndUserId(node, raw, place, 0);
	} catch (error) {
		return error as Error & { description?: string };
	}
	throw new Error('expected a failure');
};

describe('checkedEndUserId', () => {
	it('returns the id, trimmed', () =>
		expect(checkedEndUserId(node, ' c-1 ', 'node', 0)).toBe('c-1'));

	it('in the trigger, the hint suggests a fixed ID or $vars, never $json', () => {
		const error = failure('', 'trigger');
		expect(error.message).toBe('End User ID is empty');
		expect(error.description).toMatch(/\$vars\./);
		expect(error.description).not.toMatch(/\{\{\s*\$json/);
	});

	it('in a node, empty is "empty" (the editor-only hint is for pickers)', () => {
		expect(failure('', 'node').message).toBe('End User ID is empty');
		// An empty field is said to be empty in a picker too.
		expect(failure('', 'editor').message).toBe('End User ID is empty');
	});
});

describe('checkedEndUserId: which message, where', () => {
	const NODE_HINT =
		'Set End User ID to your own id of the customer, e.g. {{ $json.customerId }}: with the Albato Partner API credential every call acts as that end user';
	const TRIGGER_HINT =
		'Set End User ID to your own id of the customer: a fixed ID, or a workflow variable such as {{ $vars.albatoEndUserId }} (a trigger has no input, so $json is empty)';
	const EXPRESSION =
		'End User ID is an expression: lists in the editor need a fixed End User ID (type one to browse, then switch back)';
	const NO_VALUE =
		'End User ID has no value here (an expression has no input data in the editor). To browse, type a fixed End User ID, or run the previous node and then close and reopen this node.';
	const NO_VALUE_HINT =
		'Type a fixed End User ID to browse (switch back to the expression afterwards), or run the previous node so the expression has input data, then close and reopen this node: n8n loads option lists when a node opens';

	it('a node and a picker get the node hint; the trigger its own', () => {
		expect(failure('', 'node').description).toBe(NODE_HINT);
		expect(failure('a\nb', 'editor').description).toBe(NODE_HINT);
		expect(failure('', 'trigger').description).toBe(TRIGGER_HINT);
	});

	it('in a picker, an unresolved expression says so', () => {
		const error = failure('={{ $json.customerId }}', 'editor');
		expect(error.message).toBe(EXPRESSION);
		expect(error.description).toBe(NODE_HINT);
	});

	it('a text starting with "=" is an id outside the editor; one ending with "=" is one in the editor', () => {
		expect(checkedEndUserId(node, '=c-1', 'node', 0)).toBe('=c-1');
		expect(checkedEndUserId(node, '=c-1', 'trigger', 0)).toBe('=c-1');
		expect(checkedEndUserId(node, 'c-1=', 'editor', 0)).toBe('c-1=');
		expect(checkedEndUserId(node, 'c-1', 'editor', 0)).toBe('c-1');
	});

	it.each([[null], [undefined]])(
		'in a picker, %p (an expression without input) says how to browse',
		(raw) => {
			const error = failure(raw, 'editor');
			expect(error.message).toBe(NO_VALUE);
			expect(error.description).toBe(NO_VALUE_HINT);
		},
	);

	it('in a picker, a value that is there but wrong gets its own problem', () => {
		expect(failure('   ', 'editor').message).toBe('End User ID is empty');
		expect(failure('a\nb', 'editor').message).toBe(
			'End User ID contains control characters (e.g. a line break)',
		);
		expect(failure({}, 'editor').message).toBe('End User ID must be text or a number, got object');
		expect(failure(null, 'node').message).toBe('End User ID must be text or a number, got null');
		expect(failure(undefined, 'node').message).toBe(
			'End User ID must be text or a number, got undefined',
		);
	});
});
