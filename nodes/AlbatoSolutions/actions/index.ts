import * as bundleData from './bundleData/BundleData.resource';
import * as credential from './credential/Credential.resource';
import * as endUser from './endUser/EndUser.resource';
import * as installation from './installation/Installation.resource';
import * as run from './run/Run.resource';
import * as solution from './solution/Solution.resource';
import type { Operation } from './types';
import { endUserIdProperty } from '../../shared/descriptions/authentication.descriptions';

/** resource → operation → implementation: the node's dispatch table, checked by the compiler. */
const resources = {
	bundleData: bundleData.operations,
	credential: credential.operations,
	endUser: endUser.operations,
	installation: installation.operations,
	run: run.operations,
	solution: solution.operations,
} satisfies Record<string, Record<string, Operation>>;

const described = [
	...solution.description,
	...installation.description,
	...bundleData.description,
	...credential.description,
	...endUser.description,
	...run.description,
];

/**
 * Every resource's properties in n8n's order (HubSpot, Airtable): its Operation first, then End
 * User ID (partner mode), then the operation's own fields. Each Operation is shown for its resource
 * only, so listing them all first puts End User ID right after the one the user sees.
 */
export const resourceDescriptions = [
	...described.filter((property) => property.name === 'operation'),
	{
		...endUserIdProperty,
		// Get Plans reads the partner's plans with the master token: no end user to name. A value
		// saved there before is not read.
		displayOptions: { ...endUserIdProperty.displayOptions, hide: { operation: ['getPlans'] } },
	},
	...described.filter((property) => property.name !== 'operation'),
];

/** Each operation's menu name, by resource and operation key (the canvas subtitle shows them). */
export const operationNames: Record<string, Record<string, string>> = Object.fromEntries(
	Object.entries(resources as Record<string, Record<string, Operation>>).map(
		([resource, operations]) => [
			resource,
			Object.fromEntries(
				Object.entries(operations).map(([key, operation]) => [key, operation.option.name]),
			),
		],
	),
);

export function findOperation(resource: string, operation: string): Operation | undefined {
	const group = (resources as Record<string, Record<string, Operation>>)[resource];
	return group && Object.prototype.hasOwnProperty.call(group, operation)
		? group[operation]
		: undefined;
}

/** Only for tests: what they check or reset directly. The node never reads this. */
export const forTests = { resources };
