/** The transport's words on a failed call: what the body was, and what to do about each status. */
import {
	describeBody,
	hint,
	INVALID_JSON,
	partnerHint as hintFor,
	serviceMessage,
} from '../../nodes/shared/transport/serviceMessage';
import * as endUserApi from '../../nodes/shared/api/endUser';
import { type CallOptions, callOf } from '../../nodes/shared/transport/callOptions';
import type { AlbatoClient } from '../../nodes/shared/transport/client';
import type { ApiMethod, Call } from '../../nodes/shared/transport/errors';
import type { PartnerSession } from '../../nodes/shared/transport/partnerSession';

describe('describeBody: a few words, never the content', () => {
	it.each([
		[undefined, 'an empty body'],
		['', 'an empty body'],
		[null, 'null'],
		[[1, 2], 'a list'],
		[{}, 'an object (keys: none)'],
		[{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, 'an object (keys: a, b, c, d, e)'],
		['<html>', 'a string'],
		[42, 'a number'],
	])('%p → %p', (body, words) => expect(describeBody(body)).toBe(words));
});

describe('serviceMessage: edge cases', () => {
	it('has nothing to say for unreadable JSON, null, or bodies without a message', () => {
		expect(serviceMessage(INVALID_JSON)).toBeUndefined();
		expect(serviceMessage(null)).toBeUndefined();
		expect(serviceMessage('   ')).toBeUndefined();
		expect(serviceMessage(42)).toBeUndefined();
		expect(serviceMessage({ id: 1 })).toBeUndefined();
		expect(serviceMessage({ success: true })).toBeUndefined();
		expect(serviceMessage([])).toBeUndefined();
		expect(serviceMessage([null, { field: 'x' }])).toBe('x: ');
	});

	it('plain text is trimmed and cut at 500 characters', () => {
		expect(serviceMessage('  down  ')).toBe('down');
		expect(serviceMessage('x'.repeat(600))).toBe('x'.repeat(500));
	});

	it('reads `error` entries, joins several, skips empty ones, and `error` as text', () => {
		expect(serviceMessage({ errors: [{ error: 'bad' }, { message: 'worse' }, {}] })).toBe(
			'bad; worse',
		);
		expect(serviceMessage({ error: 'Unauthorized' })).toBe('Unauthorized');
		expect(serviceMessage({ errors: [], message: 'after an empty list' })).toBe(
			'after an empty list',
		);
		expect(serviceMessage({ message: '', error: 'then error' })).toBe('then error');
	});

	it('reads `error` and `detail` objects, and `messages` lists of a field', () => {
		expect(serviceMessage({ error: { code: 17, message: 'Installation is active' } })).toBe(
			'Installation is active',
		);
		expect(serviceMessage({ success: false, error: { message: 'No such template' } })).toBe(
			'No such template',
		);
		expect(serviceMessage({ title: 'Conflict', detail: 'Pause it first' })).toBe('Pause it first');
		expect(serviceMessage({ errors: [{ field: 'title', messages: ['too long', 'taken'] }] })).toBe(
			'title: too long, taken',
		);
		expect(serviceMessage({ success: false, error: { code: 17 } })).toBe(
			'The service reported a failure without a message',
		);
	});

	it('`error` and `detail` come after the more precise messages beside them', () => {
		expect(
			serviceMessage({ error: 'Unprocessable Entity', errors: { title: ['Title is required'] } }),
		).toBe('title: Title is required');
		expect(serviceMessage({ detail: 'Validation failed', errors: { title: ['req'] } })).toBe(
			'title: req',
		);
		expect(
			serviceMessage({
				success: false,
				error: 'Bad request',
				data: { message: 'Template 7 not found' },
			}),
		).toBe('Template 7 not found');
		expect(serviceMessage({ error: 'Conflict', message: 'Installation is active' })).toBe(
			'Installation is active',
		);
	});

	it("a gateway's HTML page is told by its title, never its markup", () => {
		const nginx =
			'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
		expect(serviceMessage(nginx)).toBe('an HTML page: "502 Bad Gateway"');
		expect(
			serviceMessage(
				'<!DOCTYPE html>\n<html lang="en"><head><TITLE>\n  Attention Required! |\n Cloudflare</TITLE><script>var x=1</script>',
			),
		).toBe('an HTML page: "Attention Required! | Cloudflare"');
		expect(serviceMessage('  <html><body><h1>Oops</h1></body></html>')).toBe(
			'an HTML page without a title',
		);
		expect(serviceMessage('<b>not a page</b>')).toBe('<b>not a page</b>');
	});

	it('field maps: lists joined, a field-less entry without a prefix', () => {
		expect(serviceMessage({ errors: { title: ['a', 'b'], '': 'general', id: 7 } })).toBe(
			'title: a, b; general; id: 7',
		);
	});
});

describe('hint: what to do about each status', () => {
	it.each([
		[401, '', /Access Token .* expired or invalid/],
		[403, '', /end user of this token may not/],
		[404, '', /Check the ID/],
		[422, 'Pause it first', /Pause the installation first/],
		[422, 'title is bad', /Check the values sent/],
		[400, 'Pause', /Pause the installation first/],
		[409, 'Installation is active', /Pause the installation first/],
		[409, 'Installation 5001 is still active', /Pause the installation first/],
		[400, 'title is bad', /Check the values sent/],
		[400, 'Connection is inactive', /Check the values sent/],
		[409, 'Installation is already active', /^See the service message above\.$/],
		[409, 'Conflict', /^See the service message above\.$/],
		[429, '', /rate limiting: lower Items in Flight/],
		[500, '', /service failed; try again later/],
		[503, '', /service failed; try again later/],
		[499, '', /^See the service message above\.$/],
		[409, '', /^See the service message above\.$/],
	])('%p %p → %p', (status, message, expected) => {
		expect(hint(status, message)).toMatch(expected);
	});
});

/** The partner hint for a failed call: its path, the token it carried, what it is about. */
const partnerHint = (
	name: string | undefined,
	status: number,
	path: string,
	withMasterToken: boolean,
	about?: 'endUser',
) => hintFor(name, status, { path, withMasterToken, about });

describe('partnerHint: partner mode only', () => {
	const master = true;
	const endUser = false;

	it('has nothing to add outside partner mode', () => {
		expect(partnerHint(undefined, 401, '/wl/acme/add-user', master)).toBeUndefined();
	});

	it('401: by the token that was sent, not by the path; names the credential', () => {
		expect(partnerHint('Prod', 401, '/wl/acme/add-user', master)).toBe(
			'The service refused the master token. Check Master Token, Partner Name and Send Master Token As in the Albato Partner API credential "Prod".',
		);
		expect(partnerHint('', 401, '/solution/installation', endUser)).toBe(
			"The service refused the end user's token even after one fresh token. Check the Albato Partner API credential (Send End-User Tokens As) and that the end user exists.",
		);
		// get-own-credential is a /wl call with the end user's token; update-user-data names the
		// option that picks its token, whichever was sent.
		expect(partnerHint('P', 401, '/wl/acme/get-own-credential', endUser)).toMatch(
			/end user's token/,
		);
		for (const sent of [master, endUser])
			expect(partnerHint('P', 401, '/credentials/7/9/update-user-data', sent)).toMatch(
				/Options → Authorize As/,
			);
	});

	it('403 with the master token; a 404 by what the call is about', () => {
		expect(partnerHint('P', 403, '/wl/acme/add-user', master)).toMatch(
			/master token is not valid for this Partner Name/,
		);
		expect(partnerHint('P', 403, '/solution/installation', endUser)).toBeUndefined();
		expect(partnerHint('P', 403, '/wl/acme/get-own-credential', endUser)).toBeUndefined();
		expect(partnerHint('P', 404, '/wl/acme/get-user-session-token', master)).toMatch(
			/^No end user with this End User ID: create it first/,
		);
		for (const call of ['get-user-profile', 'set-user-plan', 'delete-user', 'block-user-plan'])
			expect(partnerHint('P', 404, `/wl/acme/${call}`, master, 'endUser')).toMatch(
				/^No end user with this End User ID \(End User → Create makes one\), or a wrong Partner Name/,
			);
		expect(partnerHint('P', 404, '/wl/acme/get-own-credential', endUser)).toMatch(
			/no connection to your system yet/,
		);
		expect(partnerHint('P', 404, '/wl/acme/add-user', master)).toMatch(/No such partner endpoint/);
		expect(partnerHint('P', 404, '/solution/installation', endUser)).toBeUndefined();
		expect(partnerHint('P', 500, '/wl/acme/add-user', master)).toBeUndefined();
	});
});

it('partnerHint: "no end user" is for a 404 only', () => {
	expect(partnerHint('P', 500, '/wl/acme/get-user-session-token', true)).toBeUndefined();
	expect(partnerHint('P', 400, '/wl/acme/get-user-session-token', true)).toBeUndefined();
});

describe('partnerHint: every /wl call about one end user says so', () => {
	/** Every call api/endUser.ts sends, each function given the end user 'u-1'. */
	const sentBy = async () => {
		const sent: Array<{ call: Call; body?: CallOptions['body'] }> = [];
		const record = async (method: ApiMethod, path: string, options: CallOptions) => {
			sent.push({ call: callOf(method, path, options), body: options.body });
			return await Promise.resolve([]);
		};
		const client = {
			request: record,
			readByGetOrPost: async (path: string, options: CallOptions) =>
				await record('GET', path, options),
		} as unknown as AlbatoClient;
		const partner = { path: (endpoint: string) => `/wl/acme/${endpoint}` } as PartnerSession;
		for (const send of Object.values(endUserApi))
			if (typeof send === 'function')
				await (send as (...args: unknown[]) => Promise<unknown>)(client, partner, 'u-1', 100, 0);
		return sent;
	};

	it('a 404 of each call whose body names the end user hints at a missing end user', async () => {
		const aboutTheUser = (await sentBy()).filter(({ body }) => body?.id === 'u-1');
		// get-user-profile, set-user-plan, delete-user, block-user-plan, add-user-plan-transactions.
		expect(aboutTheUser.length).toBeGreaterThanOrEqual(5);
		for (const { call } of aboutTheUser)
			expect([call.path, hintFor('P', 404, call)]).toEqual([
				call.path,
				expect.stringMatching(/^No end user with this End User ID/),
			]);
	});
});
