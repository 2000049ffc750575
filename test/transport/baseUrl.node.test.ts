/**
 * A Base URL with a query, a fragment or user-info is refused before any request, through the node.
 */
import type { INodeParameters } from 'n8n-workflow';

import { runNode, useEmulator } from '../support/setup';

const ctx = useEmulator();

/**
 * Answers every request 400 with the text `answer(token)`; the token is read from the Authorization
 * header.
 */

const listSolutions: INodeParameters = {
	resource: 'solution',
	operation: 'getAll',
	requestOptions: { maxRetries: 0 },
};

describe('Base URL', () => {
	it.each([
		['a query', 'BASE/?tenant=1', /Base URL contains a query/],
		['a fragment', 'BASE/#top', /Base URL contains a fragment/],
		['user-info', 'http://admin:s3cret-pass@HOST', /Base URL contains a user name or password/],
		['not http(s)', 'ftp://example.com', /Base URL is not an http\(s\) address/],
	])('with %s is refused before any request', async (_name, pattern, message) => {
		const base = ctx.emu.baseUrl;
		const baseUrl = pattern.replace('BASE', base).replace('HOST', base.replace(/^http:\/\//, ''));
		const run = await runNode(ctx.emu, listSolutions, { baseUrl });
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toMatch(message);
		expect(run.serialized).not.toContain('s3cret-pass');
		expect(run.calls).toEqual([]);
	});

	it('a trailing slash and a path are fine', async () => {
		const run = await runNode(ctx.emu, listSolutions, { baseUrl: `${ctx.emu.baseUrl}/` });
		expect(run.error).toBeUndefined();
	});
});
