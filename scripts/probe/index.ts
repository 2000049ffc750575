/**
 * The read-only contract probe: calls only the service's GET endpoints with an end-user token and
 * tells, for each shape the spec leaves open, which variant the service uses (named as the emulator's
 * variants are, so a report maps straight onto `emu.setVariants(...)`), and anything it does not know.
 * Only keys and types are reported, never values, and the token never appears.
 */
import type { ErrorStyle, Variants } from '../../emulator/types';
import { pagingStyleOf } from '../../nodes/shared/readers/pagination';
import { successFlagOf, unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import { authorizationIn, basicUsername } from '../../nodes/shared/readers/token';
import { probeForms } from './forms';
import { probePlans } from './plans';
import { probeRuns } from './runs';

export interface ProbeOptions {
	baseUrl: string;
	token: string;
	/** A partner whose credential meta to read (GET /credentials/{id}/meta); skipped when absent. */
	partnerId?: number;
	/** A solution to read; default the first listed. */
	solutionId?: string;
	/** A sharing (connection by link) to read: GET /credentials/grant-access-sharing/{id}; skipped when absent. */
	linkId?: number;
	/** The {partner-name} whose own-connection GETs to read (get-own-credential-metadata, get-own-credential); skipped when absent. */
	partner?: string;
	/** The partner's master token: with `partner`, list-plans is read by GET and POST; skipped when absent. */
	masterToken?: string;
	fetchImpl?: typeof fetch;
}

export interface ProbeReport {
	baseUrl: string;
	/** The variants recognised, in the emulator's terms. */
	variants: Partial<Variants>;
	errorStyle?: ErrorStyle;
	/** One line per shape, human-readable. */
	lines: string[];
	/** Shapes not recognised, or not seen (e.g. no installations). */
	unknown: string[];
	calls: string[];
}

type Json = unknown;
const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);
const LIST_KEYS = ['items', 'data', 'list', 'results'];

export async function runProbe(options: ProbeOptions): Promise<ProbeReport> {
	const base = options.baseUrl.replace(/\/+$/, '');
	const doFetch = options.fetchImpl ?? fetch;
	const report: ProbeReport = { baseUrl: base, variants: {}, lines: [], unknown: [], calls: [] };
	// Each token also as Basic sends it: base64 of "<token>:".
	const secrets = [options.token, options.masterToken]
		.filter((secret): secret is string => Boolean(secret))
		.flatMap((secret) => [secret, basicUsername(secret)]);
	const redact = (text: string) =>
		secrets.reduce<string>((out, secret) => out.split(secret).join('[token]'), text);
	const say = (shape: string, what: string) => report.lines.push(`${shape}: ${redact(what)}`);
	const unknown = (shape: string, what: string) => report.unknown.push(`${shape}: ${redact(what)}`);

	// 0. Which form each token is taken in: the reads below send the end-user token in that one.
	const { userForm, masterForm, strictAuth } = await probeForms(
		{ ...options, baseUrl: base, fetchImpl: doFetch, calls: report.calls },
		say,
		unknown,
	);
	if (strictAuth) report.variants.strictAuth = strictAuth;
	const authorization = authorizationIn(options.token, userForm);

	async function get(path: string): Promise<{
		status: number;
		body: Json;
		text: string;
		contentType: string;
		headers: Record<string, string>;
	}> {
		const response = await doFetch(base + path, {
			headers: { Authorization: authorization, Accept: 'application/json' },
		});
		const text = await response.text();
		let body: Json = text;
		try {
			body = text.trim() === '' ? undefined : JSON.parse(text);
		} catch {
			// Plain text stays text.
		}
		report.calls.push(`GET ${path} → ${response.status}`);
		return {
			status: response.status,
			body,
			text,
			contentType: response.headers.get('content-type') ?? '',
			headers: Object.fromEntries(response.headers.entries()),
		};
	}

	/** Unwraps the envelope as the node does (its `success` flag as true/false, "true"/"false" or 1/0). */
	const data = unwrapEnvelope;
	const listOf = (value: Json, shape: string): unknown[] => {
		if (Array.isArray(value)) return value;
		if (isObject(value)) {
			for (const key of LIST_KEYS) if (Array.isArray(value[key])) return value[key] as unknown[];
			if (Object.values(value).length > 0 && Object.values(value).every(isObject))
				return Object.entries(value).map(([k, v]) => ({ id: k, ...(v as object) }));
		}
		unknown(shape, `not a list (${describe(value)})`);
		return [];
	};

	// 1. Solutions: envelope, list wrapper, id type.
	const apps = await get('/solution/apps');
	if (apps.status !== 200) {
		unknown(
			'GET /solution/apps',
			`status ${apps.status}: ${String(errorText(apps.body)).slice(0, 200)}`,
		);
		return report;
	}
	report.variants.bare = apps.body === unwrapEnvelope(apps.body);
	say('envelope', report.variants.bare ? 'bare bodies (no {success, data})' : '{success, data}');
	if (!report.variants.bare && successFlagOf(apps.body) !== undefined) {
		const flag = (apps.body as Record<string, unknown>).success;
		report.variants.successFlag =
			typeof flag === 'boolean' ? 'boolean' : typeof flag === 'number' ? 'number' : 'string';
		say('success flag', `${JSON.stringify(flag)} (${report.variants.successFlag})`);
	}
	const appsData = data(apps.body);
	report.variants.wrapLists = isObject(appsData) && Array.isArray(appsData.items);
	const keyedById =
		isObject(appsData) &&
		!LIST_KEYS.some((key) => Array.isArray(appsData[key])) &&
		Object.values(appsData).length > 0 &&
		Object.values(appsData).every(isObject);
	report.variants.listShape = keyedById ? 'map' : 'list';
	say(
		'lists',
		Array.isArray(appsData)
			? 'bare arrays'
			: keyedById
				? 'maps keyed by id'
				: isObject(appsData)
					? `wrapped in {${Object.keys(appsData).join(', ')}}`
					: describe(appsData),
	);
	const solutions = listOf(appsData, 'solution list').filter(isObject);
	say('solution item keys', keys(solutions[0]));
	if (solutions[0]) {
		report.variants.stringIds = typeof solutions[0].id === 'string';
		say('ids', typeof solutions[0].id === 'string' ? 'numeric strings' : typeof solutions[0].id);
	}

	// 2. Connection settings: values shape and where nested steps sit.
	const solutionId = options.solutionId ?? (solutions[0] ? String(solutions[0].id) : undefined);
	if (solutionId) {
		const first = await get(`/solution/${encodeURIComponent(solutionId)}/credentialists`);
		const steps = stepsOf(data(first.body));
		say('credentialist step keys', keys(steps[0]));
		const shapes = new Set(steps.map((step) => valuesShape(step.values)));
		const valueShape = [...shapes][0];
		if (shapes.size === 1 && valueShape !== 'unknown' && valueShape !== 'empty') {
			if (valueShape === 'plain') report.variants.plainValues = true;
			else report.variants.valuesShape = valueShape;
			say(
				'credentialist values',
				valueShape === 'plain'
					? 'plain strings'
					: valueShape === 'map'
						? '{id: title} map'
						: `[{${valueShape.replace(/([A-Z])/, ',$1').toLowerCase()}}]`,
			);
		} else unknown('credentialist values', shapes.size ? [...shapes].join(' / ') : 'no steps seen');
		// Choose the first value of each top-level step (at most 3 calls) until nested steps show.
		let nested: 'step' | 'value' | undefined = nestedPlace(steps);
		for (const step of steps.slice(0, 3)) {
			if (nested) break;
			const value = firstValue(step.values);
			if (value === undefined) continue;
			const query = `credentialData%5B${encodeURIComponent(String(step.id))}%5D=${encodeURIComponent(String(value))}`;
			nested = nestedPlace(
				stepsOf(
					data(
						(await get(`/solution/${encodeURIComponent(solutionId)}/credentialists?${query}`)).body,
					),
				),
			);
		}
		if (nested) {
			report.variants.nestedUnder = nested;
			say('nested steps', `under the ${nested}`);
		} else unknown('nested steps', 'none seen for the first value of the first steps');
		const templates = await get(`/solution/${encodeURIComponent(solutionId)}/templates`);
		say('template keys', keys(listOf(data(templates.body), 'templates').filter(isObject)[0]));
	} else unknown('credentialists', 'no solution listed');

	// 3. Installations: list items, detail, wrapper, status, bundles, bundle data.
	const installations = await get('/solution/installation');
	const listed = listOf(data(installations.body), 'installation list').filter(isObject);

	// Paging of lists (Yii2: X-Pagination-* headers, a Link header, or _links/_meta in the body).
	const paging =
		[apps, installations]
			.map((answer) => pagingStyleOf(answer.headers, answer.body))
			.find((style) => style !== 'none') ?? 'none';
	report.variants.pagination = paging;
	say(
		'list paging',
		paging === 'none'
			? 'no paging signal (lists come whole, or fit in one page)'
			: paging === 'headers'
				? 'X-Pagination-* headers'
				: paging === 'link'
					? 'a Link header'
					: '{items, _links, _meta} in the body',
	);
	if (listed.length === 0)
		unknown(
			'installations',
			'none for this end user: list, detail and bundle data shapes not seen',
		);
	else {
		const item = listed[0];
		say('installation list item keys', keys(item));
		report.variants.listWithoutStatus = !('status' in item);
		if (!('solutionId' in item) && !('appId' in item))
			say('installation list', 'items carry no solutionId/appId');
		if (report.variants.stringIds === undefined)
			report.variants.stringIds = typeof item.id === 'string';
		const id = encodeURIComponent(String(item.id));
		const detailBody = data((await get(`/solution/installation/${id}`)).body);
		report.variants.installationWrapper =
			isObject(detailBody) && isObject(detailBody.installation) && detailBody.id === undefined;
		const detail = report.variants.installationWrapper
			? (detailBody as { installation: Record<string, unknown> }).installation
			: detailBody;
		say(
			'installation detail',
			report.variants.installationWrapper ? 'wrapped as {installation}' : 'the object itself',
		);
		say('installation detail keys', keys(detail));
		report.variants.detailWithoutStatus = !(isObject(detail) && 'status' in detail);
		const status = (
			report.variants.listWithoutStatus
				? isObject(detail)
					? detail.status
					: undefined
				: item.status
		) as unknown;
		const statusShape =
			typeof status === 'number'
				? 'number'
				: typeof status === 'string'
					? /^\d+$/.test(status)
						? 'string'
						: 'word'
					: undefined;
		if (statusShape) {
			report.variants.statusShape = statusShape;
			say(
				'status',
				statusShape === 'number'
					? 'numbers (1/0)'
					: statusShape === 'string'
						? 'numeric strings ("1"/"0")'
						: `words (e.g. "${String(status)}")`,
			);
		} else unknown('status', `not in the list nor the detail (${describe(status)})`);

		const expanded = data(
			(await get(`/solution/installation/${id}?expand=app.templates,+bundles.steps`)).body,
		);
		const inst =
			isObject(expanded) && isObject(expanded.installation) && expanded.id === undefined
				? expanded.installation
				: expanded;
		const bundles = isObject(inst) ? inst.bundles : undefined;
		say(
			'bundles',
			Array.isArray(bundles)
				? 'a list'
				: isObject(bundles)
					? 'a map keyed by bundle id'
					: `absent (${describe(bundles)})`,
		);
		const bundle = Array.isArray(bundles)
			? bundles[0]
			: isObject(bundles)
				? Object.values(bundles)[0]
				: undefined;
		if (isObject(bundle)) {
			const records = data(
				(await get(`/bundle/data?filter%5BbundleId%5D=${encodeURIComponent(String(bundle.id))}`))
					.body,
			);
			const asList =
				Array.isArray(records) ||
				(isObject(records) && LIST_KEYS.some((k) => Array.isArray(records[k])));
			report.variants.bundleDataShape = asList ? 'list' : 'map';
			say('bundle data', asList ? 'a list of records' : 'a map keyed by step id');
			const record = listOf(records, 'bundle data').filter(isObject)[0];
			say('bundle data record keys', keys(record));
			if (record) {
				const fields = record.data;
				if (Array.isArray(fields)) {
					report.variants.fieldsShape = 'list';
					say('step fields', `a list of {${keys(fields[0])}}`);
				} else if (isObject(fields)) {
					report.variants.fieldsShape = 'map';
					say('step fields', 'a code → value map');
				} else unknown('step fields', describe(fields));
			}
		} else unknown('bundle data', 'no bundle in the first installation');
	}

	// 4. Credential meta, when a partner is named.
	if (options.partnerId !== undefined) {
		const meta = await get(`/credentials/${options.partnerId}/meta`);
		const body = data(meta.body);
		const fields = (
			isObject(body) && Array.isArray(body.fields) ? body.fields : Array.isArray(body) ? body : []
		).filter(isObject);
		if (fields.length === 0)
			unknown('credential meta', `status ${meta.status}, no fields (${describe(body)})`);
		else {
			report.variants.metaRequired = fields.some((f) => 'required' in f);
			const types = [...new Set(fields.map((f) => f.type))];
			report.variants.metaExtraTypes = types.some((t) => ![0, 3, 10].includes(Number(t)));
			say(
				'credential meta',
				`fields {${keys(fields[0])}}; required ${report.variants.metaRequired ? 'given' : 'absent'}; types ${types.map(String).join(', ')}`,
			);
		}
	} else say('credential meta', 'not read (pass --partner-id N)');
	say('credential create body', 'not probed: it is a write call (see Options → Body Layout)');

	// 4b. GET endpoints (read-only: no link is created, no connection written).
	if (options.linkId !== undefined) {
		const sharing = await get(`/credentials/grant-access-sharing/${options.linkId}`);
		const body = data(sharing.body);
		if (isObject(body) && 'status' in body) {
			report.variants.linkDateCreated = body.dateCreated === null ? 'null' : 'iso';
			say(
				'sharing',
				`{${keys(body)}}; status ${typeof body.status} ${typeof body.status === 'number' ? body.status : '(text)'}; dateCreated ${body.dateCreated === null ? 'null' : typeof body.dateCreated}; credentialId ${body.credentialId === null ? 'null' : typeof body.credentialId}`,
			);
		} else unknown('sharing', `status ${sharing.status}, ${describe(body)}`);
	} else say('sharing', 'not read (pass --link-id N)');
	if (options.partner !== undefined) {
		const name = encodeURIComponent(options.partner);
		const meta = await get(`/wl/${name}/get-own-credential-metadata`);
		const metaBody = data(meta.body);
		const fields =
			isObject(metaBody) && Array.isArray(metaBody.fields) ? metaBody.fields.filter(isObject) : [];
		if (fields.length)
			say(
				'own connection metadata',
				`fields {${keys(fields[0])}}; required ${fields.some((f) => 'required' in f) ? 'given' : 'absent'}; types ${[...new Set(fields.map((f) => f.type))].map(String).join(', ')}`,
			);
		else unknown('own connection metadata', `status ${meta.status}, ${describe(metaBody)}`);
		const own = await get(`/wl/${name}/get-own-credential`);
		const ownBody = data(own.body);
		if (own.status < 300 && isObject(ownBody))
			say(
				'own connection',
				`keys {${keys(ownBody)}}; webhookUrl ${'webhookUrl' in ownBody ? 'given' : 'absent'} (values not shown)`,
			);
		else if (own.status === 404) say('own connection', 'none for this end user (404)');
		else unknown('own connection', `status ${own.status}, ${describe(ownBody)}`);
	} else say('own connection', 'not read (pass --partner NAME)');

	// 5. Error body style: a read of an installation that cannot exist.
	const missing = await get('/solution/installation/0');
	if (missing.status >= 400) {
		const style = errorStyle(missing.body, missing.contentType);
		if (style) {
			report.errorStyle = style;
			say(
				'error bodies',
				`${style} (status ${missing.status}: "${String(errorText(missing.body)).slice(0, 120)}")`,
			);
		} else unknown('error bodies', `status ${missing.status}, ${describe(missing.body)}`);
	} else unknown('error bodies', `GET /solution/installation/0 answered ${missing.status}`);

	// 6. Run history: steps as levels or flat, dates with or without a zone.
	await probeRuns(get, data, report.variants, say, unknown);

	// 7. Billing plans, with the master token and the partner name only.
	if (options.masterToken && options.partner !== undefined)
		await probePlans(
			{
				baseUrl: base,
				partner: options.partner,
				authorization: authorizationIn(options.masterToken, masterForm),
				fetchImpl: doFetch,
				calls: report.calls,
			},
			data,
			report.variants,
			say,
			unknown,
		);
	else say('billing plans', 'not read (set ALBATO_MASTER_TOKEN and pass --partner NAME)');
	return report;
}

function stepsOf(value: Json): Array<Record<string, unknown>> {
	if (Array.isArray(value)) return value.filter(isObject);
	if (isObject(value)) {
		for (const key of [...LIST_KEYS, 'steps'])
			if (Array.isArray(value[key])) return (value[key] as unknown[]).filter(isObject);
	}
	return [];
}

type ValuesShape = 'valueTitle' | 'idTitle' | 'idValue' | 'map' | 'plain' | 'empty' | 'unknown';

function valuesShape(values: unknown): ValuesShape {
	if (isObject(values))
		return Object.values(values).every((v) => typeof v === 'string') ? 'map' : 'unknown';
	if (!Array.isArray(values)) return 'unknown';
	if (values.length === 0) return 'empty';
	const first = values[0];
	if (!isObject(first)) return 'plain';
	if ('value' in first && 'title' in first) return 'valueTitle';
	if ('id' in first && 'title' in first) return 'idTitle';
	if ('id' in first && 'value' in first) return 'idValue';
	return 'unknown';
}

function firstValue(values: unknown): unknown {
	if (isObject(values)) return Object.keys(values)[0];
	if (!Array.isArray(values) || values.length === 0) return undefined;
	const first = values[0];
	if (!isObject(first)) return first;
	return 'value' in first && ('title' in first || !('id' in first)) ? first.value : first.id;
}

function nestedPlace(steps: Array<Record<string, unknown>>): 'step' | 'value' | undefined {
	for (const step of steps) {
		if (Array.isArray(step.nested) && step.nested.length > 0) return 'step';
		if (
			Array.isArray(step.values) &&
			step.values.some((v) => isObject(v) && Array.isArray(v.nested) && v.nested.length > 0)
		)
			return 'value';
	}
	return undefined;
}

function errorStyle(body: Json, contentType: string): ErrorStyle | undefined {
	if (typeof body === 'string')
		return /text\/plain/.test(contentType) || body.trim() ? 'text' : undefined;
	if (Array.isArray(body)) return 'yii';
	if (!isObject(body)) return undefined;
	if (Array.isArray(body.errors))
		return body.errors.every((e) => typeof e === 'string') ? 'strings' : 'errors';
	if (isObject(body.errors)) return 'fieldMap';
	if (Array.isArray(body.data)) return 'yiiData';
	if (isObject(body.error)) return 'errorObject';
	if (typeof body.message === 'string')
		return 'name' in body && 'status' in body ? 'yii' : 'message';
	return undefined;
}

function errorText(body: Json): string {
	if (typeof body === 'string') return body;
	const entries = (list: unknown[]) =>
		list.map((e) => (isObject(e) ? String(e.message ?? '') : String(e))).join('; ');
	if (Array.isArray(body)) return entries(body);
	if (isObject(body)) {
		if (typeof body.message === 'string') return body.message;
		for (const key of ['errors', 'data'])
			if (Array.isArray(body[key])) return entries(body[key] as unknown[]);
		return JSON.stringify(body.errors ?? body);
	}
	return JSON.stringify(body);
}

const keys = (value: unknown) =>
	isObject(value) ? Object.keys(value).join(', ') : describe(value);

function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (value === null) return 'null';
	if (Array.isArray(value)) return `a list of ${value.length}`;
	if (isObject(value)) return `an object {${Object.keys(value).slice(0, 8).join(', ')}}`;
	return typeof value;
}

/** The report as text to paste into a bug report. */
export function formatReport(
	report: ProbeReport,
	meta: { probeVersion: string; node: string; date: string },
): string {
	return [
		`Albato Solutions contract probe (n8n-nodes-albato-solutions ${meta.probeVersion}, Node ${meta.node}, ${meta.date})`,
		`Base URL: ${report.baseUrl}   Token: [redacted]`,
		'',
		'Shapes seen:',
		...report.lines.map((line) => `  ${line}`),
		'',
		report.unknown.length ? 'Unknown or not seen:' : 'Unknown or not seen: none',
		...report.unknown.map((line) => `  ${line}`),
		'',
		`As emulator variants: ${JSON.stringify(report.variants)}${report.errorStyle ? `   error style: ${report.errorStyle}` : ''}`,
		'',
		'Calls (all GET):',
		...report.calls.map((call) => `  ${call}`),
	].join('\n');
}
