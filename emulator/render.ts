/** Success bodies: envelope and the shape variants the node must tolerate. */
import type { Variants } from './types';

export const DEFAULT_VARIANTS: Variants = {
	bare: false,
	successFlag: 'boolean',
	stringIds: false,
	plainValues: false,
	listWithoutStatus: false,
	wrapLists: false,
	partnerTokens: 'both',
	valuesShape: 'valueTitle',
	nestedUnder: 'step',
	listShape: 'list',
	bundleDataShape: 'list',
	fieldsShape: 'list',
	statusShape: 'number',
	detailWithoutStatus: false,
	activeRefusal: '422',
	statusCallWithoutStatus: false,
	installationWrapper: false,
	metaRequired: true,
	metaExtraTypes: false,
	credentialBody: 'flat',
	pagination: 'none',
	pageParam: 'page',
	runSteps: 'levels',
	runStatuses: 'codes',
	runDates: 'utc',
	runOrder: 'newest',
	runStepAnswer: 'object',
	profileShape: 'billing',
	profileTransactions: 'object',
	listPlansMethod: 'both',
	ownMetadataMethod: 'both',
	setPlanUnblocks: 'yes',
	linkDateCreated: 'iso',
	linkExpiredStatus: 'waiting',
	linkDeleteAnswer: 'envelope',
	linkRenewAnswer: 'sharing',
	linkReadToken: 'shown',
	updateUserDataAuth: 'either',
	ownMetadataAuth: 'either',
	connectionExtraFields: false,
	strictAuth: 'lenient',
};

/** Every value each variant may take (validated by setVariants; the probe test walks them all). */
export const VARIANT_CHOICES: { [K in keyof Variants]: ReadonlyArray<Variants[K]> } = {
	bare: [false, true],
	successFlag: ['boolean', 'string', 'number'],
	stringIds: [false, true],
	plainValues: [false, true],
	listWithoutStatus: [false, true],
	wrapLists: [false, true],
	valuesShape: ['valueTitle', 'idTitle', 'idValue', 'map'],
	nestedUnder: ['step', 'value'],
	listShape: ['list', 'map'],
	bundleDataShape: ['list', 'map'],
	fieldsShape: ['list', 'map'],
	statusShape: ['number', 'string', 'word'],
	detailWithoutStatus: [false, true],
	activeRefusal: ['422', '409', '400'],
	statusCallWithoutStatus: [false, true],
	installationWrapper: [false, true],
	metaRequired: [true, false],
	metaExtraTypes: [false, true],
	credentialBody: ['flat', 'fields'],
	partnerTokens: ['both', 'session', 'permanent', 'token'],
	pagination: ['none', 'headers', 'link', 'body', 'meta'],
	pageParam: ['page', 'p'],
	runSteps: ['levels', 'flat'],
	runStatuses: ['codes', 'words'],
	runDates: ['utc', 'userOffset', 'iso'],
	runOrder: ['newest', 'oldest', 'idDesc', 'shuffled'],
	runStepAnswer: ['object', 'list'],
	profileShape: ['billing', 'basic'],
	profileTransactions: ['object', 'none'],
	listPlansMethod: ['both', 'get', 'post'],
	ownMetadataMethod: ['both', 'get', 'post'],
	setPlanUnblocks: ['yes', 'no'],
	linkDateCreated: ['iso', 'null'],
	linkExpiredStatus: ['waiting', 'expired'],
	linkDeleteAnswer: ['envelope', 'noContent'],
	linkRenewAnswer: ['sharing', 'noContent', 'id', 'emptyList'],
	linkReadToken: ['shown', 'hidden'],
	updateUserDataAuth: ['either', 'master', 'user'],
	ownMetadataAuth: ['either', 'user', 'master'],
	connectionExtraFields: [false, true],
	strictAuth: [
		'lenient',
		'noRawBasic',
		'noBasicUsername',
		'noBearerPermanent',
		'panelToken',
		'sessionToken',
	],
};

/** The envelope's `success` flag as the variant renders it: true/false, "true"/"false", or 1/0. */
export function renderSuccessFlag(
	success: boolean,
	shape: Variants['successFlag'] = 'boolean',
): boolean | string | number {
	if (shape === 'string') return String(success);
	if (shape === 'number') return success ? 1 : 0;
	return success;
}

/** An installation status as the current variant renders it. */
export function renderStatus(status: 0 | 1, variants: Variants): number | string {
	if (variants.statusShape === 'string') return String(status);
	if (variants.statusShape === 'word') return status === 1 ? 'active' : 'paused';
	return status;
}

/** An installation answer, wrapped as {installation} when the variant says so. */
export const wrapInstallation = (data: unknown, variants: Variants) =>
	variants.installationWrapper ? { installation: data } : data;

const isIdKey = (key: string) => key === 'id' || key.endsWith('Id');
const isIdListKey = (key: string) => key.endsWith('Ids');

/** Renders integer ids (`id`, `*Id`, `*Ids`) as numeric strings, everywhere in the tree. */
export function stringifyIds(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(stringifyIds);
	if (!value || typeof value !== 'object') return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value)) {
		if (isIdKey(key) && Number.isInteger(v)) out[key] = String(v);
		else if (isIdListKey(key) && Array.isArray(v))
			out[key] = v.map((x) => (Number.isInteger(x) ? String(x) : x));
		else out[key] = stringifyIds(v);
	}
	return out;
}

/** A list answer as the `listShape` variant renders it: the list, or a map from each item's id to the item. */
export function renderList(data: unknown, variants: Variants): unknown {
	if (variants.listShape !== 'map' || !Array.isArray(data)) return data;
	return Object.fromEntries(data.map((item: { id: number | string }) => [String(item.id), item]));
}

/** The whole success body for `data` under the current variants. */
export function successBody(data: unknown, variants: Variants): unknown {
	let out = variants.stringIds ? stringifyIds(data) : data;
	if (variants.wrapLists && Array.isArray(out)) out = { items: out };
	return variants.bare
		? out
		: { success: renderSuccessFlag(true, variants.successFlag), data: out };
}
