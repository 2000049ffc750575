import type { INodeProperties } from 'n8n-workflow';

/**
 * Items in Flight's ceiling: enough to match n8n's HTTP Request node (all items at once) on a real
 * network.
 */
export const MAX_ITEMS_IN_FLIGHT = 64;

/** Execution-wide settings; read from the first item because one client serves the whole run. */
export const requestOptionsProperty: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Apply to the whole execution (read from the first item)',
	options: [
		{
			displayName: 'Canary Items',
			name: 'canaryItems',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 0,
			description:
				'How many of the first items run to the end before any other item starts. If one of them fails, no other item starts. 0: no canary.',
		},
		{
			displayName: 'Items in Flight',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: MAX_ITEMS_IN_FLIGHT },
			default: 0,
			description: `How many requests are sent to the service at once. 0 is Auto: start with 8 and grow eightfold with each round of answers, up to 128 (shared by the executions running at once in this n8n process, e.g. a worker); on a 429 (rate limited) halve, then grow back slowly. A number from 1 to ${MAX_ITEMS_IN_FLIGHT} is a fixed cap for this execution, still halved on 429. Output order and item pairing stay the same.`,
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10 },
			default: 3,
			description:
				'How often a safe call (read, update, start, pause) is retried after 502, 503, 504 or a network error. A 429 (rate limited) is retried as long as the Retry Time Budget allows. Installing and creating credentials are never retried blindly.',
		},
		{
			displayName: 'Preview',
			name: 'preview',
			type: 'boolean',
			default: false,
			description:
				'Whether to only say what each writing operation would do: input is checked and the service is read as usual, but nothing is created, changed, started, paused or deleted. Outputs carry preview: true.',
		},
		{
			displayName: 'Retry Time Budget (Seconds)',
			name: 'retryBudget',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description:
				'The most time one call may spend waiting between retries (honouring Retry-After)',
		},
		{
			displayName: 'Stop After Failures',
			name: 'stopAfterFailures',
			type: 'string',
			default: '',
			placeholder: 'e.g. 3 or 2%',
			description:
				'Start no further item once more items failed than this: a count (3), or a percentage of the items finished so far (2%). Items in flight finish. Empty: off.',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 0.1 },
			default: 30,
			description: 'How long to wait for the service to answer a request',
		},
	],
};
