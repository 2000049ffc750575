/** The Base URL rule: which URLs the transport accepts, and why one is refused. */
import { baseUrlProblem } from '../../nodes/shared/transport/baseUrl';

describe('baseUrlProblem', () => {
	it.each(['https://api.albato.com', 'http://127.0.0.1:4010', 'https://example.com/api/v1'])(
		'accepts %s',
		(url) => {
			expect(baseUrlProblem(url)).toBeUndefined();
		},
	);
	it.each([
		['https://api.albato.com?x=1', /query/],
		['https://api.albato.com/api?', /query/],
		['https://api.albato.com#frag', /fragment/],
		['https://user:pass@api.albato.com', /user name or password/],
		['https://user@api.albato.com/path', /user name or password/],
		['api.albato.com', /not an http\(s\) address/],
		['https://exa mple.com', /not a valid address/],
	])('refuses %s', (url, problem) => {
		expect(baseUrlProblem(url)).toMatch(problem);
	});
	it('an "@" in the path is not user-info', () => {
		expect(baseUrlProblem('https://api.albato.com/users/@me')).toBeUndefined();
	});
});
