/**
 * Fixtures: solutions, connection settings, templates, partner schemas and the
 * pre-existing installations. Exported so tests elsewhere can reference ids and values.
 */
import type { PlanFixture } from './runTypes';
import type { FieldRecord } from './types';
import { UPGRADE, UPGRADE_SOLUTION, upgradeTemplates } from './upgradeFixtures';

export const USER_1 = 'user-1';
export const USER_2 = 'user-2';
export const DEFAULT_SECRET = 'albato-emulator-secret';
export const DEFAULT_PARTNER = 'acme-saas';
export const DEFAULT_MASTER_TOKEN = 'emu-master-7f3a9c2e41d84b6f';
/** The first numeric id given to an end user added at run time. */
export const FIRST_END_USER = 70001;

// ------------------------------------------------------- billing plans

/** The partner's billing plans (set-user-plan's `planId`); `trxLimit` is transactions a month. */
export const PLANS: PlanFixture[] = [
	{ id: 1, title: 'Free', trxLimit: 1000 },
	{ id: 23, title: 'Pro', trxLimit: 10000 },
	{ id: 24, title: 'Business', trxLimit: 100000 },
];
/** The plan of a user created by add-user (its answer says planId 1, trxLimit 1000). */
export const DEFAULT_PLAN_ID = 1;

// ---------------------------------------------------------------- solutions

export interface SolutionVersion {
	version: number;
	status: 'published' | 'draft';
	title: string;
	description: string;
	dateUpdated: string;
}

export interface SolutionFixture {
	id: number;
	versions: SolutionVersion[];
}

export const SOLUTIONS: SolutionFixture[] = [
	{
		id: 101,
		versions: [
			{
				version: 1,
				status: 'published',
				title: 'CRM Leads to Mailer (beta)',
				description: 'First release.',
				dateUpdated: '2024-01-10T09:00:00Z',
			},
			{
				version: 2,
				status: 'published',
				title: 'CRM Leads to Mailer',
				description: 'Sends new CRM leads to a mailing list.',
				dateUpdated: '2024-03-05T09:00:00Z',
			},
			{
				version: 3,
				status: 'draft',
				title: 'CRM Leads to Mailer (next)',
				description: 'Work in progress.',
				dateUpdated: '2024-04-01T09:00:00Z',
			},
		],
	},
	{
		id: 102,
		versions: [
			{
				version: 1,
				status: 'published',
				title: 'Shop Orders to Sheets',
				description: 'Appends each new order to a spreadsheet.',
				dateUpdated: '2024-02-01T09:00:00Z',
			},
		],
	},
	{
		id: 103,
		versions: [
			{
				version: 1,
				status: 'published',
				title: 'Support Tickets to Chat',
				description: 'Posts new support tickets to a chat channel.',
				dateUpdated: '2024-02-20T09:00:00Z',
			},
		],
	},
	{
		id: 104,
		versions: [
			{
				version: 1,
				status: 'draft',
				title: 'Internal Draft',
				description: 'Never published.',
				dateUpdated: '2024-04-02T09:00:00Z',
			},
		],
	},
	UPGRADE_SOLUTION, // 105, the next version of 101 (upgradeFixtures.ts)
];

/** The listed version of a solution: the latest published one, or undefined (never listed, 404 elsewhere). */
export function latestPublished(solutionId: number): SolutionVersion | undefined {
	const solution = SOLUTIONS.find((s) => s.id === solutionId);
	const published = solution?.versions.filter((v) => v.status === 'published') ?? [];
	return published.sort((a, b) => b.version - a.version)[0];
}

// ------------------------------------------------------ connection settings

export interface StepValueFixture {
	value: string;
	title: string;
	/** Steps revealed when this value is chosen. */
	nested?: StepFixture[];
}

export interface StepFixture {
	id: string;
	title: string;
	values: StepValueFixture[];
	/** The user's connections (credentials) to this partner are offered as values too ("<credentialId>"). */
	partnerId?: number;
}

/** Solution 101 nests three levels deep (crm → hubspotPipeline → hubspotStage / hubspotQueue). */
export const CREDENTIALISTS: Record<number, StepFixture[]> = {
	101: [
		{
			id: 'crm',
			title: 'CRM',
			partnerId: 201,
			values: [
				{
					value: 'hubspot',
					title: 'HubSpot',
					nested: [
						{
							id: 'hubspotPipeline',
							title: 'Pipeline',
							values: [
								{
									value: 'sales',
									title: 'Sales',
									nested: [
										{
											id: 'hubspotStage',
											title: 'Stage',
											values: [
												{ value: 'new', title: 'New' },
												{ value: 'won', title: 'Won' },
											],
										},
									],
								},
								{
									value: 'support',
									title: 'Support',
									nested: [
										{
											id: 'hubspotQueue',
											title: 'Queue',
											values: [
												{ value: 'tier1', title: 'Tier 1' },
												{ value: 'tier2', title: 'Tier 2' },
											],
										},
									],
								},
							],
						},
					],
				},
				{
					value: 'pipedrive',
					title: 'Pipedrive',
					nested: [
						{
							id: 'pipedriveFilter',
							title: 'Filter',
							values: [
								{ value: 'all', title: 'All deals' },
								{ value: 'mine', title: 'My deals' },
							],
						},
					],
				},
			],
		},
		{
			id: 'mailer',
			title: 'Mailer',
			values: [
				{ value: 'mailchimp', title: 'Mailchimp' },
				{ value: 'sendpulse', title: 'SendPulse' },
			],
		},
	],
	// Flat: no nesting at all.
	102: [
		{
			id: 'shop',
			title: 'Shop',
			values: [
				{ value: 'shopify', title: 'Shopify' },
				{ value: 'woocommerce', title: 'WooCommerce' },
			],
		},
		{
			id: 'sheetsAccount',
			title: 'Sheets account',
			values: [
				{ value: 'primary', title: 'Primary' },
				{ value: 'secondary', title: 'Secondary' },
			],
		},
	],
	// zendeskBrand offers exactly one value.
	103: [
		{
			id: 'helpdesk',
			title: 'Helpdesk',
			values: [
				{
					value: 'zendesk',
					title: 'Zendesk',
					nested: [
						{
							id: 'zendeskBrand',
							title: 'Brand',
							values: [{ value: 'main', title: 'Main brand' }],
						},
					],
				},
				{ value: 'freshdesk', title: 'Freshdesk' },
			],
		},
		{
			id: 'chat',
			title: 'Chat',
			partnerId: 202,
			values: [
				{ value: 'slack', title: 'Slack' },
				{ value: 'telegram', title: 'Telegram' },
			],
		},
	],
	104: [{ id: 'source', title: 'Source', values: [{ value: 'x', title: 'X' }] }],
};
// 105, the next version of 101, asks for the same connection settings (the customer's are reused).
CREDENTIALISTS[UPGRADE.to] = CREDENTIALISTS[UPGRADE.from];

/** Complete credentialData examples, valid for install. */
export const VALID_CREDENTIAL_DATA: Record<number, Record<string, string>> = {
	101: { crm: 'hubspot', hubspotPipeline: 'sales', hubspotStage: 'new', mailer: 'mailchimp' },
	102: { shop: 'shopify', sheetsAccount: 'primary' },
	103: { helpdesk: 'zendesk', zendeskBrand: 'main', chat: 'slack' },
};
VALID_CREDENTIAL_DATA[UPGRADE.to] = VALID_CREDENTIAL_DATA[UPGRADE.from];

// ---------------------------------------------------------------- templates

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

// ------------------------------------------------------- partner credentials

export { PARTNERS, type PartnerField } from './partnerFixtures';

// ------------------------------------------------- pre-existing installations

/** Ids of the fixture installations, bundles and bundle steps. */
export const FIXTURE_IDS = {
	/** user-1, active, bundles 7001 (template 1011, steps 9001, 9002) and 7002 (template 1012, steps 9003, 9004). */
	activeInstallation: 5001,
	/** user-1, paused, bundle 7003 (template 1011, steps 9005, 9006). */
	pausedInstallation: 5002,
	/** user-2, paused, solution 102, bundle 7004 (template 1021, steps 9007, 9008). */
	otherUserInstallation: 5003,
	/** First id given to a new installation / bundle / bundle step / credential. */
	nextInstallation: 6001,
	nextBundle: 7101,
	nextStep: 9101,
	nextCredential: 8001,
} as const;
