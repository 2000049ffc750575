/**
 * The editor's "Test" button, as n8n's CredentialsTester finds the test: the credential type's own
 * `test` request first; otherwise the first node listing the credential with a `testedBy` names a
 * function in its `methods.credentialTest`, called with n8n-core's real CredentialTestContext (its
 * `helpers.request` goes through n8n's axios) and the stored data with the type's defaults.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialTestFunction,
	ICredentialType,
	IDataObject,
	INodeType,
} from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import { AlbatoSolutions } from '../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { TestCredentialsHelper } from './credentials';
import { testCredentials, type CredentialTestResult } from './index';

/** The function a node names in `testedBy` for this credential, as n8n looks it up. */
export function testFunctionOf(
	typeName: string,
	nodeTypes: INodeType[],
): ICredentialTestFunction | undefined {
	for (const nodeType of nodeTypes) {
		for (const { name, testedBy } of nodeType.description.credentials ?? []) {
			if (name !== typeName || !testedBy) continue;
			if (typeof testedBy !== 'string')
				throw new ApplicationError('Harness: only a testedBy function name is supported');
			return nodeType.methods?.credentialTest?.[testedBy];
		}
	}
	return undefined;
}

/** Runs the credential's test as n8n does (see above) against the stored `data`. */
export async function testCredential(
	credentialType: ICredentialType,
	data: IDataObject,
	nodeTypes: INodeType[] = [new AlbatoSolutions(), new AlbatoSolutionsTrigger()],
): Promise<CredentialTestResult> {
	if (credentialType.test) return await testCredentials(credentialType, data);
	const test = testFunctionOf(credentialType.name, nodeTypes);
	if (!test) return { status: 'Error', message: 'No testing function found for this credential.' };
	const helper = new TestCredentialsHelper([credentialType], {
		[credentialType.name]: data as never,
	});
	const decrypted = await helper.getDecrypted(
		undefined,
		{ id: null, name: '' },
		credentialType.name,
	);
	const result = await test.call(new CredentialTestContext(), {
		id: 'test',
		name: 'test',
		type: credentialType.name,
		data: decrypted,
	});
	return result as CredentialTestResult;
}
