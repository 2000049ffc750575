/**
 * Keys that cannot travel as plain data (__proto__, constructor, prototype) in any user map are
 * refused before any request, naming the parameter, the key and the item.
 */
import type { INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator, VALID } from '../support/setup';

const ctx = useEmulator();

/**
 * Answers every request 400 with the text `answer(token)`; the token is read from the Authorization
 * header.
 */

describe('keys that cannot travel as data', () => {
	const { create, update, credential } = VALID;
	const cases: Array<[string, INodeParameters, RegExp]> = [
		[
			'bundle data: __proto__',
			{ ...update, fieldValues: '{"__proto__": {"polluted": 1}}' },
			/^Field Values has the key "__proto__", which cannot be sent/,
		],
		[
			'bundle data: constructor',
			{ ...update, fieldValues: '{"subject": "ok", "constructor": "x"}' },
			/^Field Values has the key "constructor"/,
		],
		[
			'bundle data mapper: prototype',
			{
				...update,
				fieldValuesMode: 'mapper',
				fieldMapper: { mappingMode: 'defineBelow', value: { prototype: 'x' } },
			},
			/^Field Values has the key "prototype"/,
		],
		[
			'connection settings: __proto__',
			{ ...create, credentialData: '{"crm": "hubspot", "__proto__": {"x": 1}}' },
			/^Connection Settings has the key "__proto__"/,
		],
		[
			'settings, nested',
			{ ...create, options: { settings: '{"sync": {"prototype": 1}}' } },
			/^Settings has the key "sync.prototype"/,
		],
		[
			'values already chosen',
			{
				resource: 'solution',
				operation: 'getConnectionSettings',
				solutionId: byId('id', 101),
				credentialData: '{"constructor": "x"}',
			},
			/^Values Already Chosen has the key "constructor"/,
		],
		[
			'credential fields',
			{ ...credential, fields: '{"apiUrl": "https://x.example", "__proto__": "k"}' },
			/^Connection Fields has the key "__proto__"/,
		],
		[
			'credential name field',
			{ ...credential, options: { nameField: 'constructor' } },
			/^Options → Name Field cannot be "constructor"/,
		],
	];

	it.each(cases)('%s: refused before any request', async (_name, parameters, message) => {
		const run = await runNode(ctx.emu, parameters);
		expect(run.error?.name).toBe('NodeOperationError');
		expect(run.error?.message).toMatch(message);
		expect((run.error as { context?: { itemIndex?: number } }).context?.itemIndex).toBe(0);
		expect(run.calls).toEqual([]);
	});
});
