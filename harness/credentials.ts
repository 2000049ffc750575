/**
 * The one piece of n8n's backend the engine cannot run without: an ICredentialsHelper.
 *
 * In n8n it lives in the CLI package (database + encryption). Here the "stored" credentials are the
 * plain objects a test passes in, and the credential type instances are the real classes, so the
 * `authenticate` block that ships in the package is the one that puts headers on the wire.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	Workflow,
} from 'n8n-workflow';
import { ApplicationError, ICredentialsHelper, NodeHelpers } from 'n8n-workflow';

/** Test credential data by credential type name, e.g. `{ albatoSolutionsApi: { baseUrl, accessToken } }`. */
export type TestCredentials = Record<string, ICredentialDataDecryptedObject>;

export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly types = new Map<string, ICredentialType>();

	constructor(
		credentialTypes: ICredentialType[],
		private readonly data: TestCredentials,
	) {
		super();
		for (const type of credentialTypes) this.types.set(type.name, type);
	}

	private type(name: string): ICredentialType {
		const type = this.types.get(name);
		if (!type)
			throw new ApplicationError(
				`Harness: unknown credential type "${name}" (pass it in credentialTypes)`,
			);
		return type;
	}

	getParentTypes(name: string): string[] {
		// n8n uses this to route OAuth types to their own request path; walk `extends` like the CLI does.
		const parents = this.types.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	/**
	 * What n8n loads from the database, as its CredentialsHelper.applyDefaultsAndOverwrites makes it:
	 * the test's data through `NodeHelpers.getNodeParameters` over the credential type's
	 * properties, so a field the test left out has its default (nodes never see `undefined` there)
	 * and a field the type does not declare is dropped (a saved credential keeps a renamed field's
	 * value only while the type still declares the old name). A fresh copy each time, since
	 * preAuthentication may write into it.
	 */
	async getDecrypted(
		_additionalData: unknown,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	) {
		const given = this.data[type];
		if (!given) throw new ApplicationError(`Harness: no test credentials of type "${type}"`);
		const properties = this.type(type).properties;
		const data = structuredClone(given) as INodeParameters;
		return NodeHelpers.getNodeParameters(properties, data, true, false, null, null) as never;
	}

	/**
	 * Applies the credential type's `authenticate`. A function is called as is; a generic block has
	 * its `={{$credentials.x}}` expressions resolved by the workflow's real expression engine, with
	 * `$credentials` as an additional key (the same trick n8n's CLI uses).
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incoming: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incoming as IHttpRequestOptions & Record<string, unknown>;
		const { authenticate } = this.type(typeName);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate?.type !== 'generic') return requestOptions;

		const resolve = (value: unknown) =>
			workflow.expression.getSimpleParameterValue(
				node,
				value as string,
				'internal',
				{ $credentials: credentials },
				undefined,
				value as string,
			);
		for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
			if (typeof outerValue !== 'object' || outerValue === null) {
				requestOptions[outerKey] = resolve(outerValue); // url, skipSslCertificateValidation
				continue;
			}
			const target = (requestOptions[outerKey] ?? {}) as Record<string, unknown>;
			for (const [key, value] of Object.entries(outerValue))
				target[String(resolve(key))] = resolve(value);
			requestOptions[outerKey] = target;
		}
		return requestOptions;
	}

	/**
	 * Token-exchange credentials (`preAuthentication` + an `expirable` field) refresh when the field
	 * is empty or the API said 401. Ours has none, but keep the contract so such a type would work.
	 */
	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		if (!type.preAuthentication) return undefined;
		const expirable = type.properties.find((p) => p.typeOptions?.expirable === true);
		if (!expirable) return undefined;
		if (
			!credentialsExpired &&
			credentials[expirable.name] !== '' &&
			credentials[expirable.name] !== undefined
		)
			return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		Object.assign(this.data[typeName], output); // "persist" it for the next getDecrypted
		return output as ICredentialDataDecryptedObject;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.data[type] = data;
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	) {
		this.data[type] = data;
	}

	// Only used by n8n's own credential-test and OAuth routes, not by node execution.
	async getCredentials(): Promise<ICredentials> {
		throw new ApplicationError('Harness: getCredentials (encrypted credentials) is not supported');
	}
}
