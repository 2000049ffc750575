/** Run → Get New's Options: those of versions 1 to 4 (memory of runs) and from 5 (windows). */
import type { INodeProperties } from 'n8n-workflow';

import { DEFAULT_LATENESS_MINUTES } from '../../../shared/readers/runs';
import { dateOffsetOption } from './runFilters';

export const MAX_RUNS_TOTAL: INodeProperties = {
	displayName: 'Max Remembered Runs in Total',
	name: 'maxRunsTotal',
	type: 'number',
	typeOptions: { minValue: 100 },
	default: 100000,
	description:
		'No longer used: what this node keeps is bounded per customer, whatever the fleet’s age. A saved value is ignored; there is nothing to size.',
};

export const MAX_RUNS_PER_CUSTOMER: INodeProperties = {
	displayName: 'Max Remembered Runs per Customer',
	name: 'maxRunsPerCustomer',
	type: 'number',
	typeOptions: { minValue: 10 },
	default: 200,
	description:
		'Ended runs remembered per customer: older ones are taken as old history. A run that ends after more than this many newer runs of the customer ended is not returned. A first sweep returns at most this many runs per customer.',
};

/** From version 5: the same parameter name, what it now bounds. */
const RUNS_READ_PER_CUSTOMER: INodeProperties = {
	...MAX_RUNS_PER_CUSTOMER,
	displayName: 'Max Runs per Customer on a First Sweep',
	description:
		'A first sweep returns at most this many of a customer’s newest runs. A later sweep reads back at most 10 times this many runs of a customer (enough for a week’s outage at 50 runs a day on two automations).',
};

const ALLOWED_LATENESS: INodeProperties = {
	displayName: 'Allowed Lateness (Minutes)',
	name: 'latenessMinutes',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 1440 },
	default: DEFAULT_LATENESS_MINUTES,
	description:
		'How long a run may take to end and appear in the list. A run is returned once this long has passed since its last date (its own or a step’s); a run that ends or appears later than that is not returned. Lower means sooner, higher means safer.',
};

const SWEEP_GROUP: INodeProperties = {
	displayName: 'Sweep Group',
	name: 'sweepGroup',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.batch }}',
	description:
		'Executions of this node in one group sweep time in turns, each window once. Leave empty when one execution sweeps every customer. A fan-out that sweeps batches of customers in several executions at once gives each batch its own group (e.g. its batch number), and keeps each customer in one batch.',
};

export const WINDOW_OPTIONS: INodeProperties[] = [
	ALLOWED_LATENESS,
	RUNS_READ_PER_CUSTOMER,
	SWEEP_GROUP,
	dateOffsetOption,
];
