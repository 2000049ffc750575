import type { INode } from 'n8n-workflow';

import { checkedEndUserId } from '../../nodes/shared/transport/endUserId';

const node = {
	name: 'Albato',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
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
		expect(failure('', 'editor').message).toMatch(/^End User ID has no value here/);
	});
});
