/** Installation → Upgrade's parameters, for its tests and its row in operations.ts. */
import type { INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { byId } from './setup';

/** Customer "Leads for ACME" from 101 to 105, the subject's rename given. */
export const upgradeParams = (extra: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'upgrade',
	direction: 'upgrade',
	fromSolutionId: byId('id', 101),
	solutionId: byId('id', 105),
	title: 'Leads for ACME',
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1051, 1052],
	fieldRenames: JSON.stringify({ subject: 'mailSubject' }),
	options: { lostAnswerCheck: 0.5 },
	requestOptions: { maxRetries: 0 },
	...extra,
});
