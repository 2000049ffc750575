/**
 * n8n's lint wants literal defaults in a description, so the Request Options defaults are written
 * out in descriptions/requestOptions.descriptions.ts. They must still be the transport's defaults,
 * which apply when an option is unset.
 */
import type { INodeProperties } from 'n8n-workflow';

import { requestOptionsProperty } from '../../nodes/shared/descriptions/requestOptions.descriptions';
import { DEFAULT_TRANSPORT_OPTIONS } from '../../nodes/shared/transport/settings';

const option = (name: string) =>
	(requestOptionsProperty.options as INodeProperties[]).find((o) => o.name === name)!;

describe('Request Options defaults', () => {
	it('show the transport’s defaults (seconds in the UI, milliseconds in the transport)', () => {
		expect(option('maxRetries').default).toBe(DEFAULT_TRANSPORT_OPTIONS.maxRetries);
		expect(option('retryBudget').default).toBe(DEFAULT_TRANSPORT_OPTIONS.retryBudget / 1000);
		expect(option('timeout').default).toBe(DEFAULT_TRANSPORT_OPTIONS.timeout / 1000);
		expect(option('concurrency')).toMatchObject({
			displayName: 'Items in Flight',
			default: DEFAULT_TRANSPORT_OPTIONS.concurrency,
		});
	});
});
