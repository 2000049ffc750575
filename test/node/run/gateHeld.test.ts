/**
 * Run → Get New's gate, after its settle (gateHeld.ts): which keys are this execution's when some
 * of its writes were overwritten by another execution's call (n8n's store has no lock). Against a
 * store kept as a set, where the test erases what such a call would have. Pure.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { heldOrAgain, type Round } from '../../../nodes/AlbatoSolutions/actions/run/gateHeld';

const ctx = { getExecutionId: () => 'e1' } as unknown as IExecuteFunctions;

/** A store as a set; `onWrite` may erase what another call's write-back would. */
function storeOf(
	held: string[],
	onWrite: (store: Set<string>, values: string[]) => void = () => {},
) {
	const store = new Set(held);
	const record = async (values: string[]) => {
		const added = values.filter((value) => !store.has(value));
		for (const value of added) store.add(value);
		onWrite(store, added);
		return added;
	};
	return { store, record };
}

const settle = async () => {};

describe('the gate’s writes after its settle', () => {
	it('keeps a write that held though another round’s write was overwritten', async () => {
		// Round 1 held; round 2's write (its marker and key) was overwritten.
		const { store, record } = storeOf(['m1', 'a', 'b']);
		const rounds: Round[] = [
			{ marker: 'm1', fresh: ['a', 'b'] },
			{ marker: 'm2', fresh: ['c'] },
		];
		const markers = ['m1', 'm2'];
		const passed = await heldOrAgain(ctx, rounds, { record, settle, markers });
		expect(passed.sort()).toEqual(['a', 'b', 'c']);
		expect(store.has('c')).toBe(true);
		expect(markers).toHaveLength(3); // the write again has its own marker, to be removed later
	});

	it('leaves the keys another execution recorded meanwhile, and checks the write again too', async () => {
		let overwrite = true;
		const { record } = storeOf(['x'], (store, added) => {
			// The first write again is overwritten as well: what it added is gone.
			if (added.some((value) => value.startsWith('gate\n')) && overwrite) {
				overwrite = false;
				for (const value of added) store.delete(value);
			}
		});
		const markers = ['m1'];
		const rounds: Round[] = [{ marker: 'm1', fresh: ['x', 'y'] }];
		const passed = await heldOrAgain(ctx, rounds, { record, settle, markers });
		// `x` is another execution's now; `y` is ours once its second write again held.
		expect(passed).toEqual(['y']);
		expect(markers).toHaveLength(3);
	});

	it('asks nothing again when every write held', async () => {
		const { record } = storeOf(['m1', 'a']);
		const calls: string[][] = [];
		const passed = await heldOrAgain(ctx, [{ marker: 'm1', fresh: ['a'] }], {
			record: async (values) => (calls.push(values), await record(values)),
			settle,
			markers: ['m1'],
		});
		expect(passed).toEqual(['a']);
		expect(calls).toEqual([['m1']]);
	});
});
