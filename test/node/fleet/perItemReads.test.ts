/**
 * What a fleet job costs the worker besides its calls: n8n evaluates an expression in an isolated VM
 * each time a parameter holding one is read, so End User ID (an expression per customer) is read
 * once per item, not once per call (an Ensure makes seven).
 */
import { NodeExecutionContext } from 'n8n-core/dist/execution-engine/node-execution-context/node-execution-context';

import { addUsers, installFor, runPartner, usePartnerEmulator } from '../../support/partnerSetup';
import { ensureParams } from './fleetSetup';

const ctx = usePartnerEmulator();

/** How many times each parameter is read while `run` runs (n8n-core's own reads, counted). */
async function parameterReads(run: () => Promise<unknown>): Promise<Map<string, number>> {
	const context = NodeExecutionContext.prototype as unknown as {
		_getNodeParameter: (name: string, ...rest: unknown[]) => unknown;
	};
	const read = context._getNodeParameter;
	const reads = new Map<string, number>();
	context._getNodeParameter = function (this: unknown, name: string, ...rest: unknown[]) {
		reads.set(name, (reads.get(name) ?? 0) + 1);
		return read.call(this, name, ...rest);
	};
	try {
		await run();
	} finally {
		context._getNodeParameter = read;
	}
	return reads;
}

describe('End User ID is read once per item', () => {
	it('a fleet change of 4 customers (7 calls each) reads it 4 times', async () => {
		const customers = ['c1', 'c2', 'c3', 'c4'];
		await addUsers(ctx.emu, customers);
		for (const customer of customers) await installFor(ctx.emu, customer, 'CRM Leads to Mailer');
		let run: Awaited<ReturnType<typeof runPartner>> | undefined;
		const reads = await parameterReads(async () => {
			run = await runPartner(ctx.emu, ensureParams('New subject'), {
				inputItems: customers.map((customer) => ({ customer, title: 'CRM Leads to Mailer' })),
			});
		});
		expect(run?.error).toBeUndefined();
		expect(run?.json.map((json) => json.changed)).toHaveLength(4);
		// Each customer's calls: its token, the list, the installation, its values, and the writes.
		expect(run!.calls.length).toBeGreaterThanOrEqual(4 * 6);
		expect(reads.get('endUserId')).toBe(4);
	});
});
