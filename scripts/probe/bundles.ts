/**
 * The probe's bundle part: how an installation's bundles come (a list or a map keyed by id), and the
 * first bundle's data: records as a list or a map, and each record's step fields.
 */
import { unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import type { Probe } from './context';
import { describe, installationOf, isObject, keys, LIST_KEYS, listOf } from './shapes';

/** The bundles of installation `id` (already encoded), read with ?expand. */
export async function probeBundles(probe: Probe, id: string): Promise<void> {
	const answer = await probe.get(
		`/solution/installation/${id}?expand=app.templates,+bundles.steps`,
	);
	const { installation } = installationOf(unwrapEnvelope(answer.body));
	const bundles = isObject(installation) ? installation.bundles : undefined;
	probe.say(
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
	if (!isObject(bundle)) return probe.unknown('bundle data', 'no bundle in the first installation');
	await probeData(probe, bundle.id);
}

async function probeData(probe: Probe, bundleId: unknown): Promise<void> {
	const { get, say, variants } = probe;
	const answer = await get(
		`/bundle/data?filter%5BbundleId%5D=${encodeURIComponent(String(bundleId))}`,
	);
	const records = unwrapEnvelope(answer.body);
	const asList =
		Array.isArray(records) ||
		(isObject(records) && LIST_KEYS.some((k) => Array.isArray(records[k])));
	variants.bundleDataShape = asList ? 'list' : 'map';
	say('bundle data', asList ? 'a list of records' : 'a map keyed by step id');
	const record = listOf(records, 'bundle data', probe.unknown).filter(isObject)[0];
	say('bundle data record keys', keys(record));
	if (record) probeFields(probe, record.data);
}

function probeFields({ say, unknown, variants }: Probe, fields: unknown): void {
	if (Array.isArray(fields)) {
		variants.fieldsShape = 'list';
		say('step fields', `a list of {${keys(fields[0])}}`);
	} else if (isObject(fields)) {
		variants.fieldsShape = 'map';
		say('step fields', 'a code → value map');
	} else unknown('step fields', describe(fields));
}
