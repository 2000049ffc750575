/** The fixture templates: per solution, its automations and the bundle each becomes on install. */
import type { FieldRecord } from './types';
import { upgradeTemplates } from './upgradeFixtures';

export interface TemplateFixture {
	id: number;
	solutionId: number;
	title: string;
	parentAutomation: { id: number; title: string };
	params: Record<string, unknown>;
	/** The bundle created from this template on install (internal, not rendered). */
	bundle: { title: string; steps: { title: string; fields: FieldRecord[] }[] };
}

const leadStepFields = (): FieldRecord[] => [
	{ name: 'cf__8ad75c3e1f2b4a90', label: 'Lead source', type: 'string', value: 'website' },
	{ name: 'cf__1b9e04d7aa6c4f12', label: 'Minimum score', type: 'number', value: 40 },
	{ name: 'onlyNew', label: 'Only new leads', type: 'boolean', value: true },
];
const mailStepFields = (): FieldRecord[] => [
	{ name: 'subject', label: 'Subject', type: 'string', value: 'Welcome aboard' },
	{ name: 'listId', label: 'Mailing list', type: 'listRef', value: '{%12:345%}' },
	{ name: 'cf__4c2d9e8f0a1b4c3d', label: 'Delay, minutes', type: 'number', value: 15 },
	{ name: 'doubleOptIn', label: 'Double opt-in', type: 'boolean', value: false },
];

export const TEMPLATES: TemplateFixture[] = [
	{
		id: 1011,
		solutionId: 101,
		title: 'New lead → welcome email',
		parentAutomation: { id: 3011, title: 'Lead welcome flow' },
		params: { trigger: 'lead.created', schedule: null, maxPerHour: 100 },
		bundle: {
			title: 'New lead → welcome email',
			steps: [
				{ title: 'New lead in CRM', fields: leadStepFields() },
				{ title: 'Send welcome email', fields: mailStepFields() },
			],
		},
	},
	{
		id: 1012,
		solutionId: 101,
		title: 'Deal won → add tag',
		parentAutomation: { id: 3012, title: 'Deal won tagging' },
		params: { trigger: 'deal.won', tag: 'customer' },
		bundle: {
			title: 'Deal won → add tag',
			steps: [
				{
					title: 'Deal won in CRM',
					fields: [
						{ name: 'cf__77aa0c1de3f54b8a', label: 'Pipeline', type: 'listRef', value: '{%7:12%}' },
						{ name: 'minAmount', label: 'Minimum amount', type: 'number', value: 1000.5 },
					],
				},
				{
					title: 'Tag subscriber',
					fields: [
						{ name: 'tag', label: 'Tag', type: 'string', value: 'customer' },
						{ name: 'overwrite', label: 'Overwrite tags', type: 'boolean', value: false },
					],
				},
			],
		},
	},
	{
		id: 1021,
		solutionId: 102,
		title: 'New order → sheet row',
		parentAutomation: { id: 3021, title: 'Order export' },
		params: { trigger: 'order.created', sheetName: 'Orders' },
		bundle: {
			title: 'New order → sheet row',
			steps: [
				{
					title: 'New order',
					fields: [
						{
							name: 'cf__0f3e5a7b9c1d4e2f',
							label: 'Order status',
							type: 'listRef',
							value: '{%3:paid%}',
						},
						{ name: 'includeRefunds', label: 'Include refunds', type: 'boolean', value: false },
					],
				},
				{
					title: 'Add row',
					fields: [
						{ name: 'sheetName', label: 'Sheet', type: 'string', value: 'Orders' },
						{ name: 'startRow', label: 'Start row', type: 'number', value: 2 },
					],
				},
			],
		},
	},
	{
		id: 1031,
		solutionId: 103,
		title: 'New ticket → chat message',
		parentAutomation: { id: 3031, title: 'Ticket notification' },
		params: { trigger: 'ticket.created', priority: ['high', 'urgent'] },
		bundle: {
			title: 'New ticket → chat message',
			steps: [
				{
					title: 'New ticket',
					fields: [
						{
							name: 'cf__9d8c7b6a5f4e4d3c',
							label: 'Priority',
							type: 'listRef',
							value: '{%21:high%}',
						},
						{ name: 'minAgeMinutes', label: 'Minimum age, minutes', type: 'number', value: 0 },
					],
				},
				{
					title: 'Post message',
					fields: [
						{ name: 'channel', label: 'Channel', type: 'string', value: '#support' },
						{ name: 'mention', label: 'Mention on-call', type: 'boolean', value: true },
						// Values of every JSON type (lists, objects, null): what a snapshot must restore as they are.
						{ name: 'alsoPostTo', label: 'Also post to', type: 'list', value: ['#ops', '#leads'] },
						{
							name: 'cf__6a1b2c3d4e5f4a6b',
							label: 'Message options',
							type: 'object',
							value: { threads: true, emoji: ':ticket:', retries: 2 },
						},
						{
							name: 'maxPerHour',
							label: 'Max messages per hour',
							type: 'number',
							nullable: true,
							value: null,
						},
					],
				},
			],
		},
	},
	{
		id: 1041,
		solutionId: 104,
		title: 'Draft template',
		parentAutomation: { id: 3041, title: 'Draft' },
		params: {},
		bundle: { title: 'Draft', steps: [] },
	},
];
// 1051, 1052: solution 105's, made from 101's (upgradeFixtures.ts).
TEMPLATES.push(...upgradeTemplates(TEMPLATES));

export const templatesOf = (solutionId: number): TemplateFixture[] =>
	TEMPLATES.filter((t) => t.solutionId === solutionId);
