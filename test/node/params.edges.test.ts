/**
 * The parameter checks' exact words, and the values they let through as they are meant to: run
 * through n8n-core against the emulator, like test/node/params.test.ts, but each message and
 * description asserted whole (what a user or an AI agent reads), and the accepted values checked in
 * the request the service received.
 */
import type { INodeParameters } from 'n8n-workflow';

import { byId, runNode, useEmulator, VALID } from '../support/setup';

const ctx = useEmulator();
const { create, update } = VALID;
const templates: INodeParameters = {
	resource: 'solution',
	operation: 'getTemplates',
	solutionId: byId('id', 101),
};

/** Runs one item and returns its error's message and description, asserting nothing was sent. */
async function refusal(parameters: INodeParameters) {
	const run = await runNode(ctx.emu, parameters);
	expect(run.calls).toEqual([]);
	expect(run.error?.name).toBe('NodeOperationError');
	return { message: run.error?.message, description: run.error?.description };
}

// A Solution's own example, where to find one, and an empty value said empty.
const ID_HINT =
	'Set "Solution" to its ID (e.g. 101): pick it from the list, or read it from Solution → Get Many';
const idMessage = (got: string) =>
	got === 'empty'
		? 'Solution is empty: give its ID (e.g. 101)'
		: `Solution must be a positive whole number, got ${got}: give its ID (e.g. 101), not its name`;

describe('an ID that is no ID: the value described, safely', () => {
	it.each([
		['={{ undefined }}', 'empty'],
		['={{ null }}', 'empty'],
		['={{ [1, 2] }}', 'a list'],
		['={{ { a: 1 } }}', 'an object'],
		['={{ "   " }}', 'empty'],
		['={{ "abc" }}', '"abc"'],
		[`={{ "${'n'.repeat(50)}" }}`, `"${'n'.repeat(40)}"`],
		['={{ -5 }}', '-5'],
		['={{ 1.5 }}', '1.5'],
		['={{ true }}', 'true'],
	])('%s → %s', async (value, got) => {
		expect(await refusal({ ...templates, solutionId: byId('id', value) })).toEqual({
			message: idMessage(got),
			description: ID_HINT,
		});
	});
});

describe('JSON parameters', () => {
	const hint = 'Write "Connection Settings" as a JSON object, e.g. {"key": "value"}';

	it('not JSON: the parser says where', async () => {
		let parserMessage = '';
		try {
			JSON.parse('{bad json');
		} catch (error) {
			parserMessage = (error as Error).message;
		}
		expect(parserMessage).not.toBe('');
		expect(await refusal({ ...create, credentialData: '{bad json' })).toEqual({
			message: `Connection Settings is not valid JSON: ${parserMessage}`,
			description: hint,
		});
	});

	it('JSON that is no object', async () => {
		expect(await refusal({ ...create, credentialData: '"text"' })).toEqual({
			message: 'Connection Settings must be a JSON object, got "text"',
			description: hint,
		});
	});

	it('a key that cannot travel, deep in a list: its whole path', async () => {
		const { message } = await refusal({
			...update,
			fieldValues: '{"subject": "ok", "rows": [{"x": 1}, {"deep": {"constructor": 1}}]}',
		});
		expect(message).toBe(
			'Field Values has the key "rows[1].deep.constructor", which cannot be sent',
		);
	});

	it('empty where a value is needed', async () => {
		expect(await refusal({ ...update, fieldValues: '  ' })).toEqual({
			message: 'Field Values is empty',
			description: 'Give at least one entry in "Field Values"',
		});
	});

	it('an object from an expression is taken as it is', async () => {
		const run = await runNode(ctx.emu, {
			...update,
			fieldValues: '={{ { subject: "from an expression" } }}',
		});
		expect(run.error).toBeUndefined();
		const sent = ctx.emu.requests.filter((request) => request.method !== 'GET');
		expect(sent).toHaveLength(1);
		expect(JSON.stringify(sent[0].body)).toContain('from an expression');
	});

	it('Map Each Field: unset fields (null, empty) are left out, false and 0 are sent', async () => {
		const run = await runNode(ctx.emu, {
			...update,
			fieldValuesMode: 'mapper',
			fieldMapper: { mappingMode: 'defineBelow', value: { subject: 'mapped', body: '', cc: null } },
		});
		expect(run.error).toBeUndefined();
		const sent = ctx.emu.requests.filter((request) => request.method !== 'GET');
		expect(sent).toHaveLength(1);
		const body = JSON.stringify(sent[0].body);
		expect(body).toContain('mapped');
		expect(body).not.toContain('"body"');
		expect(body).not.toContain('"cc"');
	});
});

describe('text parameters', () => {
	it('a number is text; spaces around a title are trimmed', async () => {
		const run = await runNode(ctx.emu, { ...create, title: '={{ 42 }}' });
		expect(run.error).toBeUndefined();
		expect(run.json[0]).toMatchObject({ title: '42' });
		const padded = await runNode(ctx.emu, { ...create, title: '  Padded  ' });
		expect(padded.json[0]).toMatchObject({ title: 'Padded' });
	});

	it('no text: said exactly', async () => {
		expect(await refusal({ ...create, title: '={{ [1] }}' })).toEqual({
			message: 'Title must be text, got a list',
			description: undefined,
		});
		expect(await refusal({ ...create, title: '={{ "  " }}' })).toEqual({
			message: 'Title is empty',
			description: 'Give "Title" a value',
		});
	});
});
