/** The link readers: zoneless dates read as UTC (as run dates are); what counts as a sharing. */
import { execFileSync } from 'child_process';
import { resolve } from 'path';

import { holdsSharing, linkExpiry, sharingOf } from '../../nodes/shared/readers/links';

const ZONELESS = '2025-05-19 17:58:18';
const UTC = '2025-05-19T17:58:18Z';

describe('link dates', () => {
	it('a zoneless dateCreated gives the same expiry as the same time in UTC', () => {
		expect(linkExpiry(ZONELESS, 0).expiresAt).toBe(linkExpiry(UTC, 0).expiresAt);
		expect(linkExpiry(ZONELESS, 0).expiresAt).toBe('2025-05-21T17:58:18.000Z');
		expect(sharingOf({ id: 1, dateCreated: ZONELESS }).dateCreated).toBe(ZONELESS);
		expect(sharingOf({ id: 1, dateCreated: 'yesterday' }).dateCreated).toBeUndefined();
	});

	it('does so whatever the time zone of the machine (Asia/Tokyo, in a child process)', () => {
		const script = `const l = require(${JSON.stringify(resolve(__dirname, '../../nodes/shared/readers/links'))});
process.stdout.write(l.linkExpiry(${JSON.stringify(ZONELESS)}, 0).expiresAt);`;
		const out = execFileSync(
			process.execPath,
			['-r', 'ts-node/register/transpile-only', '-e', script],
			{ env: { ...process.env, TZ: 'Asia/Tokyo' }, encoding: 'utf8' },
		);
		expect(out).toBe('2025-05-21T17:58:18.000Z');
	});
});

describe('holdsSharing', () => {
	it.each([[{}], [{ foo: 1 }], [{ message: 'ok' }], [[]], [null], ['text']])(
		'%j is not a sharing',
		(data) => expect(holdsSharing(data)).toBe(false),
	);
	it.each([[{ id: 5 }], [{ status: 0 }], [{ credentialId: 9 }], [{ token: 't' }]])(
		'%j is a sharing',
		(data) => expect(holdsSharing(data)).toBe(true),
	);
});

describe('sharingOf: connected only with a real connection', () => {
	it.each([
		[{ id: 5, credentialId: null, status: 0 }, 'waiting'],
		[{ id: 5, credentialId: 0, status: 0 }, 'waiting'],
		[{ id: 5, credentialId: '0', status: 0 }, 'waiting'],
		[{ id: 5, credentialId: 0, status: 2 }, 'expired'],
		[{ id: 5, credentialId: 9, status: 1 }, 'connected'],
		[{ id: 5, credentialId: '9' }, 'connected'],
	])('%j is %s', (data, state) => {
		const sharing = sharingOf(data);
		expect(sharing.state).toBe(state);
		expect(sharing.credentialId).toBe(state === 'connected' ? 9 : undefined);
	});
});
