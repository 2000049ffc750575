/**
 * The probe's installation part: the list (and, with the solution list, how lists page), the first
 * installation's detail and how its status is written, then its bundles.
 */
import { unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import { probeBundles } from './bundles';
import type { Answer, Probe } from './context';
import { probePaging } from './lists';
import { describe, installationOf, isObject, keys, listOf } from './shapes';

/** Reads GET /solution/installation; `apps` is GET /solution/apps's answer, for the paging. */
export async function probeInstallations(probe: Probe, apps: Answer): Promise<void> {
	const installations = await probe.get('/solution/installation');
	const list = listOf(unwrapEnvelope(installations.body), 'installation list', probe.unknown);
	probePaging(probe, [apps, installations]);
	const item = list.filter(isObject)[0];
	if (!item)
		return probe.unknown(
			'installations',
			'none for this end user: list, detail and bundle data shapes not seen',
		);
	const { say, variants } = probe;
	say('installation list item keys', keys(item));
	variants.listWithoutStatus = !('status' in item);
	if (!('solutionId' in item) && !('appId' in item))
		say('installation list', 'items carry no solutionId/appId');
	if (variants.stringIds === undefined) variants.stringIds = typeof item.id === 'string';
	const id = encodeURIComponent(String(item.id));
	const detail = await probeDetail(probe, id);
	const status = variants.listWithoutStatus
		? isObject(detail)
			? detail.status
			: undefined
		: item.status;
	probeStatus(probe, status);
	await probeBundles(probe, id);
}

/** The detail of installation `id` (already encoded), as the node reads it. */
async function probeDetail({ get, say, variants }: Probe, id: string): Promise<unknown> {
	const body = unwrapEnvelope((await get(`/solution/installation/${id}`)).body);
	const { wrapped, installation: detail } = installationOf(body);
	variants.installationWrapper = wrapped;
	say('installation detail', wrapped ? 'wrapped as {installation}' : 'the object itself');
	say('installation detail keys', keys(detail));
	variants.detailWithoutStatus = !(isObject(detail) && 'status' in detail);
	return detail;
}

function probeStatus({ say, unknown, variants }: Probe, status: unknown): void {
	const shape =
		typeof status === 'number'
			? 'number'
			: typeof status === 'string'
				? /^\d+$/.test(status)
					? 'string'
					: 'word'
				: undefined;
	if (!shape) return unknown('status', `not in the list nor the detail (${describe(status)})`);
	variants.statusShape = shape;
	say(
		'status',
		shape === 'number'
			? 'numbers (1/0)'
			: shape === 'string'
				? 'numeric strings ("1"/"0")'
				: `words (e.g. "${String(status)}")`,
	);
}
