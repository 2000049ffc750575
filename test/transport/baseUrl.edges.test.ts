/** The Base URL as calls use it, and what makes one unusable. */
import { baseUrlOf, baseUrlProblem } from '../../nodes/shared/transport/baseUrl';

it('baseUrlOf: trimmed, every trailing slash dropped, nothing for nothing', () => {
	expect(baseUrlOf(' https://api.albato.com// ')).toBe('https://api.albato.com');
	expect(baseUrlOf('https://a.example/b/')).toBe('https://a.example/b');
	expect(baseUrlOf('https://a.example')).toBe('https://a.example');
	expect(baseUrlOf(undefined)).toBe('');
	expect(baseUrlOf(null)).toBe('');
});

it('baseUrlProblem: the scheme must start the address; user-info is found after http:// too', () => {
	expect(baseUrlProblem('xhttps://api.albato.com')).toBe('is not an http(s) address');
	expect(baseUrlProblem('http://user:pw@127.0.0.1:4010')).toMatch(/user name or password/);
	expect(baseUrlProblem('HTTP://user@127.0.0.1')).toMatch(/user name or password/);
});
