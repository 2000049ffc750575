/**
 * The probe's connection parts, each read only when named: a partner's credential meta
 * (--partner-id), a sharing, that is a connection by link (--link-id), and the end user's own
 * connection with its metadata (--partner). All GETs: no link is created, no connection written.
 */
import { unwrapEnvelope } from '../../nodes/shared/readers/shapes';
import type { Probe } from './context';
import { describe, isObject, keys } from './shapes';

export interface ConnectionsNamed {
	partnerId?: number;
	linkId?: number;
	partner?: string;
}

export async function probeConnections(probe: Probe, named: ConnectionsNamed): Promise<void> {
	await probeMeta(probe, named.partnerId);
	probe.say('credential create body', 'not probed: it is a write call (see Options → Body Layout)');
	await probeSharing(probe, named.linkId);
	await probeOwn(probe, named.partner);
}

/** "fields {id, type, …}; required given; types 0, 3" */
const fieldsText = (fields: Array<Record<string, unknown>>) =>
	`fields {${keys(fields[0])}}; required ${fields.some((f) => 'required' in f) ? 'given' : 'absent'}; types ${[...new Set(fields.map((f) => f.type))].map(String).join(', ')}`;

async function probeMeta(probe: Probe, partnerId: number | undefined): Promise<void> {
	if (partnerId === undefined)
		return probe.say('credential meta', 'not read (pass --partner-id N)');
	const meta = await probe.get(`/credentials/${partnerId}/meta`);
	const body = unwrapEnvelope(meta.body);
	const fields = (
		isObject(body) && Array.isArray(body.fields) ? body.fields : Array.isArray(body) ? body : []
	).filter(isObject);
	if (fields.length === 0)
		return probe.unknown('credential meta', `status ${meta.status}, no fields (${describe(body)})`);
	probe.variants.metaRequired = fields.some((f) => 'required' in f);
	const types = [...new Set(fields.map((f) => f.type))];
	probe.variants.metaExtraTypes = types.some((t) => ![0, 3, 10].includes(Number(t)));
	probe.say('credential meta', fieldsText(fields));
}

async function probeSharing(probe: Probe, linkId: number | undefined): Promise<void> {
	if (linkId === undefined) return probe.say('sharing', 'not read (pass --link-id N)');
	const sharing = await probe.get(`/credentials/grant-access-sharing/${linkId}`);
	const body = unwrapEnvelope(sharing.body);
	if (!isObject(body) || !('status' in body))
		return probe.unknown('sharing', `status ${sharing.status}, ${describe(body)}`);
	probe.variants.linkDateCreated = body.dateCreated === null ? 'null' : 'iso';
	probe.say(
		'sharing',
		`{${keys(body)}}; status ${typeof body.status} ${typeof body.status === 'number' ? body.status : '(text)'}; dateCreated ${body.dateCreated === null ? 'null' : typeof body.dateCreated}; credentialId ${body.credentialId === null ? 'null' : typeof body.credentialId}`,
	);
}

async function probeOwn(probe: Probe, partner: string | undefined): Promise<void> {
	const { get, say, unknown } = probe;
	if (partner === undefined) return say('own connection', 'not read (pass --partner NAME)');
	const name = encodeURIComponent(partner);
	const meta = await get(`/wl/${name}/get-own-credential-metadata`);
	const metaBody = unwrapEnvelope(meta.body);
	const fields =
		isObject(metaBody) && Array.isArray(metaBody.fields) ? metaBody.fields.filter(isObject) : [];
	if (fields.length) say('own connection metadata', fieldsText(fields));
	else unknown('own connection metadata', `status ${meta.status}, ${describe(metaBody)}`);
	const own = await get(`/wl/${name}/get-own-credential`);
	const ownBody = unwrapEnvelope(own.body);
	if (own.status < 300 && isObject(ownBody))
		say(
			'own connection',
			`keys {${keys(ownBody)}}; webhookUrl ${'webhookUrl' in ownBody ? 'given' : 'absent'} (values not shown)`,
		);
	else if (own.status === 404) say('own connection', 'none for this end user (404)');
	else unknown('own connection', `status ${own.status}, ${describe(ownBody)}`);
}
