/**
 * The probe's billing part: with the partner's master token (ALBATO_MASTER_TOKEN) and
 * --partner, reads list-plans by GET and by POST (both reads) and reports `listPlansMethod`, the
 * plans' keys and id types (never values, never the token). block-user-plan and
 * add-user-plan-transactions change things: they are named as not probed.
 */
import type { Variants } from '../../emulator/types';

const isObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PlansProbe {
	baseUrl: string;
	partner: string;
	/** The master token's Authorization header, in the form the service took. */
	authorization: string;
	fetchImpl: typeof fetch;
	calls: string[];
}

async function listPlans(probe: PlansProbe, method: 'GET' | 'POST') {
	const path = `/wl/${encodeURIComponent(probe.partner)}/list-plans`;
	const response = await probe.fetchImpl(probe.baseUrl + path, {
		method,
		headers: {
			Authorization: probe.authorization,
			Accept: 'application/json',
			'Content-Type': 'application/json',
		},
	});
	const text = await response.text();
	probe.calls.push(`${method} ${path} → ${response.status}`);
	let body: unknown = text;
	try {
		body = text.trim() === '' ? undefined : JSON.parse(text);
	} catch {
		// Plain text stays text.
	}
	return { status: response.status, body };
}

export async function probePlans(
	probe: PlansProbe,
	unwrap: (body: unknown) => unknown,
	variants: Partial<Variants>,
	say: (shape: string, what: string) => void,
	unknown: (shape: string, what: string) => void,
): Promise<void> {
	const get = await listPlans(probe, 'GET');
	const post = await listPlans(probe, 'POST');
	if (get.status === 401 || post.status === 401)
		return unknown('billing plans', 'the master token was refused (401): check it and --partner');
	const ok = (status: number) => status >= 200 && status < 300;
	if (ok(get.status) && ok(post.status)) variants.listPlansMethod = 'both';
	else if (ok(get.status)) variants.listPlansMethod = 'get';
	else if (ok(post.status)) variants.listPlansMethod = 'post';
	else
		return unknown('billing plans', `list-plans answered GET ${get.status}, POST ${post.status}`);
	say('list-plans method', `${variants.listPlansMethod} (GET ${get.status}, POST ${post.status})`);
	const data = unwrap(ok(get.status) ? get.body : post.body);
	const plans = Array.isArray(data)
		? data.filter(isObject)
		: isObject(data) && Array.isArray(data.items)
			? data.items.filter(isObject)
			: isObject(data)
				? Object.values(data).filter(isObject)
				: [];
	if (plans.length === 0) return unknown('billing plans', 'no plan listed');
	const plan = plans[0];
	say(
		'plan keys',
		`{${Object.keys(plan).sort().join(', ')}}; id ${typeof plan.id}; monthlyTrx ${typeof plan.monthlyTrx}; ${plans.length} plan(s)`,
	);
	say(
		'block-user-plan, add-user-plan-transactions',
		'not probed: they change the account (block pauses a user; transactions are billed)',
	);
}
