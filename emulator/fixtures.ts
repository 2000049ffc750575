/**
 * Fixtures: solutions, connection settings, templates, partner schemas and the
 * pre-existing installations. Exported so tests elsewhere can reference ids and values.
 */
import type { PlanFixture } from './runTypes';
import { UPGRADE, UPGRADE_SOLUTION } from './upgradeFixtures';

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

export { TEMPLATES, templatesOf, type TemplateFixture } from './templateFixtures';

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
