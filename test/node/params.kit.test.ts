/**
 * The parameter kit (actions/params.ts, descriptions/common.descriptions.ts): one number-range
 * reader, one one-of reader, one confirmation, one App ID. Each refuses with a NodeOperationError
 * that names the parameter and carries the item, before any request.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	appIdParameter,
	numberInRange,
	oneOf,
	requireConfirmation,
	UTC_OFFSET_MINUTES,
} from '../../nodes/AlbatoSolutions/actions/params';
import {
	appIdProperty,
	confirmProperty,
	type Confirmation,
} from '../../nodes/shared/descriptions/common.descriptions';
import { node } from '../support/node';

const ctx = (parameters: Record<string, unknown> = {}) =>
	({
		getNode: () => node,
		getNodeParameter: (name: string, _item: number, fallback: unknown) =>
			name in parameters ? parameters[name] : fallback,
	}) as unknown as IExecuteFunctions;

function failure(run: () => unknown): NodeOperationError {
	try {
		run();
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return error as NodeOperationError;
	}
	throw new Error('did not fail');
}

describe('numberInRange', () => {
	it('reads a number within the range, and the fallback when nothing is given', () => {
		expect(numberInRange(ctx(), 840, 'Offset', UTC_OFFSET_MINUTES, 0)).toBe(840);
		expect(numberInRange(ctx(), -720, 'Offset', UTC_OFFSET_MINUTES, 0)).toBe(-720);
		for (const nothing of [undefined, null, ''])
			expect(numberInRange(ctx(), nothing, 'Wait', { min: 1, max: 60, fallback: 5 }, 0)).toBe(5);
	});

	it.each([
		[841, UTC_OFFSET_MINUTES, 'Offset must be a whole number from -720 to 840, got 841'],
		[1.5, UTC_OFFSET_MINUTES, 'Offset must be a whole number from -720 to 840, got 1.5'],
		['5', { min: 1, whole: true }, 'Offset must be a whole number of at least 1, got "5"'],
		[0.5, { min: 1, max: 60, unit: 'seconds' }, 'Offset must be a number of seconds from 1 to 60'],
		[Number.NaN, { min: 0 }, 'Offset must be a number of at least 0, got NaN'],
		[undefined, { min: 0 }, 'Offset must be a number of at least 0, got nothing'],
	])('refuses %p', (raw, range, message) => {
		const error = failure(() => numberInRange(ctx(), raw, 'Offset', range, 3));
		expect(error.message).toMatch(new RegExp(`^${message.replace(/[()]/g, '\\$&')}`));
		expect(error.context.itemIndex).toBe(3);
		expect(error.description).toMatch(/Nothing was sent/);
	});

	it('takes a numeric text only when the range says so', () => {
		const range = { min: 1, max: 60, unit: 'seconds', fromText: true };
		expect(numberInRange(ctx(), '5', 'Wait', range, 0)).toBe(5);
		expect(failure(() => numberInRange(ctx(), 'soon', 'Wait', range, 0)).message).toBe(
			'Wait must be a number of seconds from 1 to 60, got "soon"',
		);
	});

	it('fits a count in steps (a positive multiple of 100) and a percentage', () => {
		const hundreds = { min: 100, multipleOf: 100 };
		expect(numberInRange(ctx(), 300, 'Count', hundreds, 0)).toBe(300);
		expect(failure(() => numberInRange(ctx(), 250, 'Count', hundreds, 0)).message).toBe(
			'Count must be a whole number of at least 100, a multiple of 100, got 250',
		);
		expect(failure(() => numberInRange(ctx(), 0, 'Count', hundreds, 0)).message).toMatch(/got 0$/);
		expect(numberInRange(ctx(), 12.5, 'Percent', { min: 0, max: 100 }, 0)).toBe(12.5);
		expect(() => numberInRange(ctx(), 101, 'Percent', { min: 0, max: 100 }, 0)).toThrow(
			'Percent must be a number from 0 to 100, got 101',
		);
	});
});

describe('oneOf', () => {
	it('reads a value of the list, and the fallback when nothing is given', () => {
		expect(oneOf(ctx(), 'b', 'Mode', { allowed: ['a', 'b'] }, 0)).toBe('b');
		expect(oneOf(ctx(), undefined, 'Mode', { allowed: ['a', 'b'], fallback: 'a' }, 0)).toBe('a');
	});

	it('names every choice, and the item', () => {
		const error = failure(() =>
			oneOf(ctx(), 'on', 'Filters → Status', { allowed: ['x', 'y', 'z'] }, 2),
		);
		expect(error.message).toBe('Filters → Status must be "x", "y" or "z", got "on"');
		expect(error.context.itemIndex).toBe(2);
		expect(failure(() => oneOf(ctx(), 1, 'Mode', { allowed: ['a', 'b'] }, 0)).message).toBe(
			'Mode must be "a" or "b", got 1',
		);
	});
});

describe('confirmation', () => {
	const block: Confirmation = {
		name: 'confirmBlock',
		displayName: 'Confirm: Block',
		consequence: 'blocking the end user stops all their automations',
	};

	it('is a boolean, off by default, described in one standard way', () => {
		expect(confirmProperty(block)).toEqual({
			displayName: 'Confirm: Block',
			name: 'confirmBlock',
			type: 'boolean',
			default: false,
			description:
				'Whether you confirm it: blocking the end user stops all their automations, and cannot be undone. While off, the item fails and nothing is sent.',
		});
	});

	it('fails the item while off, naming the parameter; passes when on', () => {
		for (const off of [ctx(), ctx({ confirmBlock: false }), ctx({ confirmBlock: 'true' })]) {
			const error = failure(() => requireConfirmation(off, block, 4));
			expect(error.message).toBe('Confirm: Block is off: nothing was sent');
			expect(error.description).toBe(
				'Blocking the end user stops all their automations, and cannot be undone. Turn on "Confirm: Block" to go ahead.',
			);
			expect(error.context.itemIndex).toBe(4);
		}
		expect(() => requireConfirmation(ctx({ confirmBlock: true }), block, 0)).not.toThrow();
	});
});

describe('App ID', () => {
	it('is one property under each saved name, read as a positive whole number', () => {
		expect(appIdProperty('linkPartnerId', 'The app of the link')).toMatchObject({
			displayName: 'App ID',
			name: 'linkPartnerId',
			type: 'string',
			default: '',
			required: true,
		});
		expect(appIdProperty('partnerId').typeOptions).toBeUndefined();
		expect(appIdParameter(ctx({ linkPartnerId: ' 201 ' }), 'linkPartnerId', 0)).toBe(201);
		expect(appIdParameter(ctx({ linkPartnerId: 201 }), 'linkPartnerId', 0)).toBe(201);
		expect(
			failure(() => appIdParameter(ctx({ partnerId: 'HubSpot' }), 'partnerId', 1)).message,
		).toMatch(/^App ID must be a positive whole number, got "HubSpot"/);
	});
});
