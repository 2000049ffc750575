/**
 * The credentials' Test button (the nodes' `testedBy`). n8n's declarative test sends one request
 * in one form, so on Auto it failed with the right token wherever the service refuses the first
 * form (Basic username). These try the forms Auto tries, as the node does, and say what is wrong:
 * a wrong token, a form the service refuses, a Base URL that is not Albato's or cannot be reached.
 * Nothing is created: the partner test asks a token for a user id no partner has, the Access Token
 * test lists the apps.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { successFlagOf } from '../readers/shapes';
import {
	authorizationIn,
	chosenForm,
	formChoice,
	formsFor,
	redact,
	type TokenForm,
} from '../readers/token';
import { baseUrlOf, baseUrlProblem } from '../transport/baseUrl';
import { checkPartnerName } from '../transport/partnerIds';
import { serviceMessage } from '../transport/serviceMessage';

/** The user id the partner test asks a token for: no partner should have a customer with it. */
export const CREDENTIAL_TEST_USER_ID = 'n8n-credential-test-no-such-user';

/** The form option's names, by form: the one name a message gives a form. */
const OPTION_OF: Record<TokenForm, string> = {
	basicUsername: 'Basic Username',
	basicRaw: 'Basic Token',
	bearer: 'Bearer',
};

interface Answer {
	status: number;
	body: unknown;
}

/** What differs between the two credentials' tests. */
interface Spec {
	/** The token's field (name and label), and the option that picks its form (`headerForm`). */
	tokenField: string;
	tokenLabel: string;
	option: string;
	/** What the token is called in messages, and where to get a right one. */
	tokenName: string;
	getAnother: string;
	/** Auto's forms for this token, in order. */
	other: 'bearer' | 'basicRaw';
	problem: (data: ICredentialDataDecryptedObject) => string | undefined;
	request: (baseUrl: string, data: ICredentialDataDecryptedObject) => object;
	/** Whether a 2xx must carry Albato's `success` indicator to count. */
	needsSuccessFlag: boolean;
}

const error = (message: string): INodeCredentialTestResult => ({ status: 'Error', message });

/** What is wrong with Base URL and the token before any request, or undefined. */
function commonProblem(spec: Spec, data: ICredentialDataDecryptedObject): string | undefined {
	const wrong = baseUrlProblem(baseUrlOf(data.baseUrl));
	if (wrong) return `Base URL ${wrong}: set it to e.g. https://api.albato.com`;
	if (!String(data[spec.tokenField] ?? '').trim())
		return `${spec.tokenLabel} is empty: ${spec.getAnother}`;
	return spec.problem(data);
}

/** The service's own words on an answer, without the token. */
const wordsOf = (answer: Answer, token: string) =>
	redact(serviceMessage(answer.body) ?? `HTTP ${answer.status}`, token);

/** An answer other than a 401, read: undefined when it proves the token works in that form. */
function verdict(spec: Spec, answer: Answer, token: string, data: ICredentialDataDecryptedObject) {
	const words = wordsOf(answer, token);
	const { status } = answer;
	if (status === 403 && spec.needsSuccessFlag)
		return `The master token is not valid for Partner Name "${String(data.partnerName).trim()}" (403: "${words}"). Check both.`;
	if (status === 429 || status >= 500)
		return `The service answered ${status} ("${words}"): that proves nothing about the token. Test again in a minute.`;
	if (spec.needsSuccessFlag && successFlagOf(answer.body) === undefined)
		return `Base URL did not answer like Albato's partner API (${status}, no JSON "success" indicator, e.g. a 404 page or an empty body). Check Base URL (e.g. https://api.albato.com) and Partner Name.`;
	if (!spec.needsSuccessFlag && status >= 300)
		return `Base URL did not answer like Albato (${status}: "${words}"). Check Base URL (e.g. https://api.albato.com).`;
	return undefined;
}

/** The forms to try: the chosen one first (then Auto's, to tell a wrong token from a wrong form). */
function formsToTry(spec: Spec, token: string, choice: unknown): TokenForm[] {
	const auto = formsFor(token, 'auto', spec.other);
	const chosen = chosenForm(choice);
	return chosen ? [chosen, ...auto.filter((form) => form !== chosen)] : auto;
}

type Send = (form: TokenForm) => Promise<Answer>;

/** Tries each form until one is taken; the result says which, or what is wrong. */
async function tryForms(spec: Spec, data: ICredentialDataDecryptedObject, send: Send) {
	const token = String(data[spec.tokenField]).trim();
	const forms = formsToTry(spec, token, formChoice(data, 'headerForm'));
	const refused: string[] = [];
	for (const form of forms) {
		const answer = await send(form);
		if (answer.status === 401) {
			refused.push(`${OPTION_OF[form]}: 401 "${wordsOf(answer, token)}"`);
			continue;
		}
		const wrong = verdict(spec, answer, token, data);
		if (wrong) return error(wrong);
		return taken(spec, form, forms, chosenForm(formChoice(data, 'headerForm')));
	}
	const every = forms.length > 1 ? 'in every form' : 'in the one form it may take';
	return error(
		`The token is most likely wrong: the service refused it ${every} (${refused.join('; ')}). ${spec.getAnother}.`,
	);
}

/** The result when the service took the token in `form`. */
function taken(spec: Spec, form: TokenForm, forms: TokenForm[], chosen: TokenForm | undefined) {
	if (chosen && form !== chosen)
		return error(
			`The ${spec.tokenName} is right, but the service refused it as ${OPTION_OF[chosen]} (401) and took it as ${OPTION_OF[form]}: set ${spec.option} to ${OPTION_OF[form]}, or Auto.`,
		);
	const after = form === forms[0] ? '' : `, after a 401 as ${OPTION_OF[forms[0]]}`;
	const how = chosen ? `as ${spec.option} says` : `on Auto${after}; the node does the same`;
	return {
		status: 'OK' as const,
		message: `Connection successful: the service took the ${spec.tokenName} as ${OPTION_OF[form]} (${how})`,
	};
}

/** A thrown request error's network code (ECONNREFUSED, ENOTFOUND…), if it had no answer. */
function unreachable(caught: unknown): string | undefined {
	const cause = caught as { code?: unknown; cause?: { code?: unknown }; statusCode?: unknown };
	if (cause.statusCode !== undefined) return undefined;
	const code = cause.code ?? cause.cause?.code;
	return typeof code === 'string' ? code : 'no answer';
}

/** The test of one credential, as n8n calls a `testedBy` function. */
function testOf(spec: Spec) {
	return async function (
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		const problem = commonProblem(spec, data);
		if (problem) return error(problem);
		const baseUrl = baseUrlOf(data.baseUrl);
		const token = String(data[spec.tokenField]);
		// `request` is the one helper a credential test is given: n8n-core's CredentialTestContext
		// (1.123, 2.0 and 2.41 alike) has no httpRequest, the replacement n8n's lint names for
		// `this.helpers.request` (no-deprecated-workflow-functions), and n8n's package scan takes no
		// inline disable. Read once, as n8n's own credential tests use it, through n8n's axios;
		// test/credentials/testContext.test.ts fails the day the context offers httpRequest.
		const { request } = this.helpers;
		const send: Send = async (form) => {
			const answer = (await request({
				...spec.request(baseUrl, data),
				headers: { Authorization: authorizationIn(token, form) },
				json: true,
				simple: false,
				resolveWithFullResponse: true,
				timeout: 30_000,
			})) as { statusCode: number; body: unknown };
			return { status: answer.statusCode, body: answer.body };
		};
		try {
			return await tryForms(spec, data, send);
		} catch (caught) {
			const code = unreachable(caught);
			if (code) return error(`Could not reach ${baseUrl}: check Base URL (${code})`);
			return error(redact((caught as Error).message, token.trim()));
		}
	};
}

const partner: Spec = {
	tokenField: 'masterToken',
	tokenLabel: 'Master Token',
	option: 'Send Master Token As',
	tokenName: 'master token',
	getAnother: 'Copy the master token again from the Embedded panel of your Albato partner account',
	other: 'basicRaw',
	problem: (data) =>
		checkPartnerName(data.partnerName)
			? undefined
			: 'Partner Name is not valid: give the {partner-name} of your partner URLs (letters, digits, - _ . ~)',
	request: (baseUrl, data) => ({
		method: 'POST',
		uri: `${baseUrl}/wl/${encodeURIComponent(String(data.partnerName).trim())}/get-user-session-token`,
		body: { id: CREDENTIAL_TEST_USER_ID },
	}),
	needsSuccessFlag: true,
};

const accessToken: Spec = {
	tokenField: 'accessToken',
	tokenLabel: 'Access Token',
	option: 'Send Token As',
	tokenName: 'access token',
	getAnother:
		"Paste the end user's current token (a session token expires: get a new one, e.g. with End User → Get Token)",
	other: 'bearer',
	problem: () => undefined,
	request: (baseUrl) => ({ method: 'GET', uri: `${baseUrl}/solution/apps` }),
	needsSuccessFlag: false,
};

export const credentialTest = {
	albatoPartnerApiTest: testOf(partner),
	albatoSolutionsApiTest: testOf(accessToken),
};
