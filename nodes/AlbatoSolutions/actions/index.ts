import * as bundleData from './bundleData/BundleData.resource';
import * as credential from './credential/Credential.resource';
import * as endUser from './endUser/EndUser.resource';
import * as installation from './installation/Installation.resource';
import * as run from './run/Run.resource';
import * as solution from './solution/Solution.resource';
import type { Operation } from './types';

/** resource → operation → implementation: the node's dispatch table, checked by the compiler. */
export const resources = {
	bundleData: bundleData.operations,
	credential: credential.operations,
	endUser: endUser.operations,
	installation: installation.operations,
	run: run.operations,
	solution: solution.operations,
} satisfies Record<string, Record<string, Operation>>;

export const resourceDescriptions = [
	...solution.description,
	...installation.description,
	...bundleData.description,
	...credential.description,
	...endUser.description,
	...run.description,
];

export function findOperation(resource: string, operation: string): Operation | undefined {
	const group = (resources as Record<string, Record<string, Operation>>)[resource];
	return group && Object.prototype.hasOwnProperty.call(group, operation)
		? group[operation]
		: undefined;
}
