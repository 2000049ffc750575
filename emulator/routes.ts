/** The service's route table (paths exactly as in the spec). */
import { ApiError } from './errors';
import { bundleData, updateBundleData } from './handlers/bundles';
import type { Handler } from './handlers/context';
import { createCredential, credentialMeta } from './handlers/credentials';
import { getInstallation, listInstallations, pause, play } from './handlers/installations';
import { createLink, deleteLink, getLink, renewLink } from './handlers/links';
import {
	getOwnCredential,
	getOwnCredentialMetadataBy,
	upsertOwnCredential,
} from './handlers/ownCredential';
import {
	authenticateUpdateUserData,
	authenticateUserOrMaster,
	updateUserData,
} from './handlers/updateUserData';
import { addUser, getUserSessionToken } from './handlers/partner';
import { getRunStep, listRuns } from './handlers/runs';
import type { PartnerSettings, Variants } from './types';
import { credentialists, install, listApps, listTemplates } from './handlers/solutions';
import { deleteUser, getUserProfile, setUserPlan } from './handlers/userLifecycle';
import { addUserPlanTransactions, blockUserPlan, listPlansBy } from './handlers/billing';

interface Route {
	/** Group 1, when present, is the numeric {id}. */
	pattern: RegExp;
	methods: Record<string, Handler>;
	/** Methods whose JSON body the handler reads. */
	withBody?: string[];
	/** Authorised by the partner's master token; group 1 is the {partner-name}. */
	partner?: boolean;
	/** A list the `pagination` variant pages. */
	list?: boolean;
	/** Its own authentication (instead of the end-user token, or the master token with `partner`); returns the log's user. */
	auth?: RouteAuth;
}

/** What a route's own authentication may look at. */
export interface AuthEnv {
	secret: string;
	permanentTokens: Map<string, string>;
	partner: PartnerSettings;
	variants: Variants;
	/** Group 1 of the path, decoded (the {partner-name} of /wl routes). */
	segment: string;
}
export type RouteAuth = (header: string | undefined, env: AuthEnv) => string;

const ID = '(\\d{1,15})';

export const ROUTES: Route[] = [
	{ pattern: /^\/solution\/apps$/, methods: { GET: listApps }, list: true },
	{ pattern: new RegExp(`^/solution/${ID}/credentialists$`), methods: { GET: credentialists } },
	{
		pattern: new RegExp(`^/solution/${ID}/templates$`),
		methods: { GET: listTemplates },
		list: true,
	},
	{
		pattern: new RegExp(`^/solution/${ID}/installation$`),
		methods: { POST: install },
		withBody: ['POST'],
	},
	{ pattern: /^\/solution\/installation$/, methods: { GET: listInstallations }, list: true },
	{
		pattern: new RegExp(`^/solution/installation/${ID}$`),
		methods: { GET: getInstallation, PLAY: play, PAUSE: pause },
	},
	{ pattern: /^\/bundle\/data$/, methods: { GET: bundleData }, list: true },
	{
		pattern: new RegExp(`^/bundle/data/${ID}$`),
		methods: { PUT: updateBundleData },
		withBody: ['PUT'],
	},
	{ pattern: new RegExp(`^/credentials/${ID}/meta$`), methods: { GET: credentialMeta } },
	{
		pattern: new RegExp(`^/credentials/${ID}$`),
		methods: { POST: createCredential },
		withBody: ['POST'],
	},
	{
		pattern: /^\/wl\/([^/]+)\/add-user$/,
		methods: { POST: addUser },
		withBody: ['POST'],
		partner: true,
	},
	{
		pattern: /^\/wl\/([^/]+)\/get-user-session-token$/,
		methods: { POST: getUserSessionToken },
		withBody: ['POST'],
		partner: true,
	},
	// Run history (end-user token) and user lifecycle (master token).
	{ pattern: /^\/bundle\/events$/, methods: { GET: listRuns }, list: true },
	{ pattern: new RegExp(`^/bundle/events/steps/${ID}$`), methods: { GET: getRunStep } },
	...(['get-user-profile', 'set-user-plan', 'delete-user'] as const).map((name) => ({
		pattern: new RegExp(`^/wl/([^/]+)/${name}$`),
		methods: {
			POST: {
				'get-user-profile': getUserProfile,
				'set-user-plan': setUserPlan,
				'delete-user': deleteUser,
			}[name],
		},
		withBody: ['POST'],
		partner: true,
	})),
	// Billing (handlers/billing.ts), master token like the lifecycle calls.
	{
		pattern: /^\/wl\/([^/]+)\/list-plans$/,
		methods: { GET: listPlansBy('GET'), POST: listPlansBy('POST') },
		partner: true,
	},
	...(['block-user-plan', 'add-user-plan-transactions'] as const).map((name) => ({
		pattern: new RegExp(`^/wl/([^/]+)/${name}$`),
		methods: {
			POST: {
				'block-user-plan': blockUserPlan,
				'add-user-plan-transactions': addUserPlanTransactions,
			}[name],
		},
		withBody: ['POST'],
		partner: true,
	})),
	// Connection by link, update-user-data, the partner's own connection (handlers/links.ts, ownCredential.ts).
	{
		pattern: /^\/credentials\/grant-access-sharing$/,
		methods: { POST: createLink },
		withBody: ['POST'],
	},
	{
		pattern: new RegExp(`^/credentials/grant-access-sharing/${ID}$`),
		methods: { GET: getLink, PUT: renewLink, PATCH: renewLink, DELETE: deleteLink },
		withBody: ['PUT', 'PATCH'],
	},
	{
		pattern: new RegExp(`^/credentials/${ID}/${ID}/update-user-data$`),
		methods: { POST: updateUserData },
		auth: authenticateUpdateUserData,
	},
	{
		pattern: /^\/wl\/([^/]+)\/upsert-own-credential$/,
		methods: { POST: upsertOwnCredential },
		withBody: ['POST'],
	},
	{
		pattern: /^\/wl\/([^/]+)\/get-own-credential$/,
		methods: { POST: getOwnCredential, GET: getOwnCredential },
	},
	{
		pattern: /^\/wl\/([^/]+)\/get-own-credential-metadata$/,
		methods: {
			GET: getOwnCredentialMetadataBy('GET'),
			POST: getOwnCredentialMetadataBy('POST'),
		},
		auth: authenticateUserOrMaster,
	},
];

export interface Match {
	handler: Handler;
	id: number;
	readsBody: boolean;
	partner: boolean;
	list: boolean;
	/** Group 1 as text (the {partner-name} of /wl routes). */
	segment: string;
	/** Every group of the path, decoded (e.g. both ids of update-user-data). */
	params: string[];
	auth?: RouteAuth;
}

const safeDecode = (text: string) => {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
};

/** Finds the handler, or throws 404 (unknown path) / 405 (known path, other method, with Allow). */
export function match(method: string, path: string): Match {
	for (const route of ROUTES) {
		const m = route.pattern.exec(path);
		if (!m) continue;
		const handler = route.methods[method];
		if (!handler) {
			const allow = Object.keys(route.methods).join(', ');
			throw new ApiError(405, `Method ${method} is not allowed on ${path}; allowed: ${allow}`, {
				Allow: allow,
			});
		}
		return {
			handler,
			id: m[1] && !route.partner ? Number(m[1]) : NaN,
			readsBody: route.withBody?.includes(method) ?? false,
			partner: route.partner ?? false,
			list: route.list ?? false,
			segment: m[1] ? safeDecode(m[1]) : '',
			params: m.slice(1).map((g) => safeDecode(g ?? '')),
			auth: route.auth,
		};
	}
	throw new ApiError(404, `No endpoint at ${path}`);
}
