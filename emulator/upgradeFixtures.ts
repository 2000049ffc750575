/**
 * Solution 105, "CRM Leads to Mailer 2": the next version of solution 101 as a partner prepares it
 * in the partner panel, a new solution (Albato documents no upgrade call and no version link between
 * solutions). What changed from 101, for Installation → Upgrade's tests and the demo:
 * - template 1051 (from 1011, same title): its step "Send welcome email" is renamed "Send welcome
 *   message" (same place); its field `subject` is renamed `mailSubject`; a new field `replyTo`
 *   comes with a default; the field `onlyNew` of "New lead in CRM" is removed;
 * - template 1052 (from 1012): unchanged;
 * - the same connection settings as 101 (the same step ids, the same partner connections), so the
 *   customer's connections are reused.
 * Every one of these is the emulator's guess (README: "Upgrades (issue 52)").
 */
import type { FieldRecord } from './types';

export const UPGRADE = {
	/** The old solution (101) and its next version (105). */
	from: 101,
	to: 105,
	templates: { 1011: 1051, 1012: 1052 } as Record<number, number>,
} as const;

export const UPGRADE_SOLUTION = {
	id: UPGRADE.to,
	versions: [
		{
			version: 1,
			status: 'published' as const,
			title: 'CRM Leads to Mailer 2',
			description: 'The next version of CRM Leads to Mailer: a reply-to address, clearer names.',
			dateUpdated: '2024-06-01T09:00:00Z',
		},
	],
};

const leadStep = (): FieldRecord[] => [
	{ name: 'cf__8ad75c3e1f2b4a90', label: 'Lead source', type: 'string', value: 'website' },
	{ name: 'cf__1b9e04d7aa6c4f12', label: 'Minimum score', type: 'number', value: 40 },
];
const messageStep = (): FieldRecord[] => [
	{ name: 'mailSubject', label: 'Subject', type: 'string', value: 'Welcome aboard' },
	{ name: 'listId', label: 'Mailing list', type: 'listRef', value: '{%12:345%}' },
	{ name: 'cf__4c2d9e8f0a1b4c3d', label: 'Delay, minutes', type: 'number', value: 15 },
	{ name: 'doubleOptIn', label: 'Double opt-in', type: 'boolean', value: false },
	{ name: 'replyTo', label: 'Reply-to address', type: 'string', value: 'support@example.com' },
];

const dealStep = (): FieldRecord[] => [
	{ name: 'cf__77aa0c1de3f54b8a', label: 'Pipeline', type: 'listRef', value: '{%7:12%}' },
	{ name: 'minAmount', label: 'Minimum amount', type: 'number', value: 1000.5 },
];
const tagStep = (): FieldRecord[] => [
	{ name: 'tag', label: 'Tag', type: 'string', value: 'customer' },
	{ name: 'overwrite', label: 'Overwrite tags', type: 'boolean', value: false },
];

export const UPGRADE_TEMPLATES = [
	{
		id: 1051,
		solutionId: UPGRADE.to,
		title: 'New lead → welcome email',
		parentAutomation: { id: 3051, title: 'Lead welcome flow 2' },
		params: { trigger: 'lead.created', schedule: null, maxPerHour: 100 },
		bundle: {
			title: 'New lead → welcome email',
			steps: [
				{ title: 'New lead in CRM', fields: leadStep() },
				{ title: 'Send welcome message', fields: messageStep() },
			],
		},
	},
	{
		id: 1052,
		solutionId: UPGRADE.to,
		title: 'Deal won → add tag',
		parentAutomation: { id: 3052, title: 'Deal won tagging 2' },
		params: { trigger: 'deal.won', tag: 'customer' },
		bundle: {
			title: 'Deal won → add tag',
			steps: [
				{ title: 'Deal won in CRM', fields: dealStep() },
				{ title: 'Tag subscriber', fields: tagStep() },
			],
		},
	},
];
