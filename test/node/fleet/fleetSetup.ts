/** What the fleet tests (preview, rollout guard, resume) share: writes in the request log, the emulator's state. */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Emulator } from '../../../emulator';
import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import { byId } from '../../support/setup';

/** POSTs that change nothing: the token call, the profile, the own connection (sent in Preview). */
const READING_POSTS = /\/wl\/[^/]+\/(get-user-session-token|get-user-profile|get-own-credential)$/;

/** The calls in `calls` ("METHOD /path") that may change the service. */
export const writesIn = (calls: string[]) =>
	calls.filter((call) => {
		const [method, path] = call.split(' ');
		return method !== 'GET' && !(method === 'POST' && READING_POSTS.test(path));
	});

/** The emulator's whole state as text (maps and sets included), to prove a run changed nothing. */
export const stateOf = (emu: Emulator): string =>
	JSON.stringify(emu.state, (_key, value: unknown) =>
		value instanceof Map
			? { map: [...value.entries()] }
			: value instanceof Set
				? { set: [...value] }
				: value,
	);

export const SUBJECT = { automation: 1011, step: 'Send welcome email', code: 'subject' };

/** Installation → Ensure of solution 101 for a customer: title from the item, subject as given. */
export const ensureParams = (subject: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'ensure',
	solutionId: byId('id', 101),
	title: '={{ $json.title }}',
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011, 1012],
	desiredFields: { field: [{ ...SUBJECT, value: subject }] },
	desiredStatus: 'active',
	options: { lostAnswerCheck: 0.5 },
	...extra,
});

export const withoutPreview = (json: IDataObject) =>
	Object.fromEntries(Object.entries(json).filter(([key]) => key !== 'preview')) as IDataObject;
