/**
 * The probe's token forms: which way of putting each token in the Authorization header the
 * service takes (`Bearer`, Basic with the token as the username and an empty password, `Basic
 * <token>`), each tried with one read: GET /solution/apps for the end-user token, GET list-plans
 * for the master token. Reported in the node's own words (Send Token As, Send Master Token As) and,
 * when it matches one, as the emulator's `strictAuth` reading. Never the tokens.
 */
import type { StrictAuth } from '../../emulator/types';
import {
	authorizationIn,
	FORM_NAMES,
	looksLikeJwt,
	type TokenForm,
} from '../../nodes/shared/readers/token';

const FORMS: TokenForm[] = ['bearer', 'basicUsername', 'basicRaw'];

export interface FormsProbe {
	baseUrl: string;
	token: string;
	masterToken?: string;
	partner?: string;
	fetchImpl: typeof fetch;
	calls: string[];
}

/** Status of a read per form; 0 when the request failed. */
type Answers = Record<TokenForm, number>;

async function tryForms(probe: FormsProbe, path: string, token: string): Promise<Answers> {
	const answers = {} as Answers;
	for (const form of FORMS) {
		try {
			const response = await probe.fetchImpl(probe.baseUrl + path, {
				headers: { Authorization: authorizationIn(token, form), Accept: 'application/json' },
			});
			await response.text();
			answers[form] = response.status;
		} catch {
			answers[form] = 0;
		}
		probe.calls.push(`GET ${path} (${FORM_NAMES[form]}) → ${answers[form] || 'no answer'}`);
	}
	return answers;
}

const taken = (status: number) => status > 0 && status !== 401 && status !== 403;

/** "Bearer: 200; Basic username (…): 401; …" */
const told = (answers: Answers) =>
	FORMS.map((form) => `${FORM_NAMES[form]} ${answers[form] || 'no answer'}`).join('; ');

/** What the probe learnt: the form the rest of its reads use, and the strict reading, if one. */
export interface FormsFound {
	/** The end-user token's first form the service took (Bearer when none was). */
	userForm: TokenForm;
	/** The master token's first form the service took (Basic username when none was). */
	masterForm: TokenForm;
	strictAuth?: StrictAuth;
}

export async function probeForms(
	probe: FormsProbe,
	say: (shape: string, what: string) => void,
	unknown: (shape: string, what: string) => void,
): Promise<FormsFound> {
	const jwt = looksLikeJwt(probe.token);
	const user = await tryForms(probe, '/solution/apps', probe.token);
	const kind = jwt ? 'end-user token (a JWT)' : 'end-user token (not a JWT: a permanent token)';
	const userForm = FORMS.find((form) => taken(user[form])) ?? 'bearer';
	if (FORMS.some((form) => taken(user[form]))) say(`${kind} forms`, told(user));
	else unknown(`${kind} forms`, `none taken: ${told(user)}`);
	const found: FormsFound = { userForm, masterForm: 'basicUsername' };
	if (!jwt && !taken(user.bearer) && taken(user.basicUsername))
		found.strictAuth = 'noBearerPermanent';
	if (!probe.masterToken || probe.partner === undefined) {
		say('master token forms', 'not read (set ALBATO_MASTER_TOKEN and pass --partner NAME)');
		return found;
	}
	const path = `/wl/${encodeURIComponent(probe.partner)}/list-plans`;
	const master = await tryForms(probe, path, probe.masterToken);
	found.masterForm = FORMS.find((form) => taken(master[form])) ?? 'basicUsername';
	if (FORMS.some((form) => taken(master[form]))) say('master token forms', told(master));
	else unknown('master token forms', `none taken: ${told(master)}`);
	if (taken(master.basicUsername) && !taken(master.basicRaw)) found.strictAuth ??= 'noRawBasic';
	if (!taken(master.basicUsername) && taken(master.basicRaw)) found.strictAuth = 'noBasicUsername';
	return found;
}
