import type {
	FieldType,
	IDataObject,
	ILoadOptionsFunctions,
	ResourceMapperField,
	ResourceMapperFields,
} from 'n8n-workflow';

import { bundleData } from '../api/bundleData';
import { partnerSchema } from '../api/credential';
import { ownCredentialMetadata } from '../api/ownConnection';
import { checkPartnerName } from '../transport/partnerIds';
import { normalizeSchema, type PartnerField } from '../readers/partnerSchema';
import { connectionSettingSteps, fetchConnectionSettings } from '../api/solution';
import { choiceName } from '../readers/connectionSettings';
import type { AlbatoClient } from '../transport/client';
import { READS_AT_ONCE } from '../transport/concurrency';
import { mapLimited } from '../transport/mapLimited';
import type { SettingStep } from '../readers/settingSteps';
import { isObject, sameId } from '../readers/shapes';
import { mapperFieldName } from '../readers/fieldLabel';
import { load } from './load';
import { parentId } from './parent';

/** Values already picked in a mapper (so a refresh can reveal what depends on them). */
function mappedValues(ctx: ILoadOptionsFunctions, name: string): IDataObject {
	try {
		const current = ctx.getCurrentNodeParameter(name) as { value?: IDataObject | null } | undefined;
		return isObject(current?.value) ? current.value : {};
	} catch {
		return {};
	}
}

/**
 * Field type for a current value: the service has no field types in its data call, so the value
 * decides.
 */
function typeOf(value: unknown): FieldType {
	if (typeof value === 'boolean') return 'boolean';
	if (typeof value === 'number') return 'number';
	if (Array.isArray(value)) return 'array';
	if (isObject(value)) return 'object';
	return 'string';
}

/** The current value, short enough for a field label; "empty" when there is none. */
function shortText(value: unknown): string {
	if (value === undefined || value === null || value === '') return 'empty';
	const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
	return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** A schema field as a mapper field: secrets marked, choices from allowedValues. */
function schemaField(field: PartnerField, required: boolean): ResourceMapperField {
	return {
		id: field.id,
		displayName: field.secret ? `${field.label} (secret)` : field.label,
		required,
		defaultMatch: false,
		display: true,
		type: field.allowedValues ? 'options' : 'string',
		options: field.allowedValues
			? Object.entries(field.allowedValues).map(([value, label]) => ({ name: label, value }))
			: undefined,
	};
}

/** Probes per refresh of the Connection Settings mapper, at most (each one GET, 4 at a time). */
const MAX_PROBES = 12;

/**
 * Which choices open further steps, by "stepId\nvalue": the service shows a value's nested steps
 * only once it is sent, so each value not chosen yet is sent once, with the choices above it. The
 * chosen values' nested steps are in the tree already. Best effort: a probe that fails marks
 * nothing.
 */
async function probeOpens(
	client: AlbatoClient,
	solutionId: number,
	steps: SettingStep[],
	chosen: IDataObject,
): Promise<Map<string, string[]>> {
	const opens = new Map<string, string[]>();
	const probes: Array<{ step: SettingStep; value: unknown; above: IDataObject }> = [];
	const walk = (level: SettingStep[], above: IDataObject) => {
		for (const step of level) {
			for (const option of step.values) {
				const key = `${step.id}\n${String(option.value)}`;
				if (String(option.value) === String(chosen[step.id])) {
					if (step.nested.length)
						opens.set(
							key,
							step.nested.map((nested) => nested.title),
						);
					walk(step.nested, { ...above, [step.id]: option.value });
				} else probes.push({ step, value: option.value, above });
			}
		}
	};
	walk(steps, {});
	await mapLimited(probes.slice(0, MAX_PROBES), READS_AT_ONCE, async ({ step, value, above }) => {
		try {
			const shown = await connectionSettingSteps(client, solutionId, {
				...above,
				[step.id]: value as IDataObject[string],
			});
			const nested = findStep(shown, step.id)?.nested ?? [];
			if (nested.length)
				opens.set(
					`${step.id}\n${String(value)}`,
					nested.map((entry) => entry.title),
				);
		} catch {
			// Not marked: the choice still works, and a refresh after choosing shows what it opens.
		}
		return true;
	});
	return opens;
}

function findStep(level: SettingStep[], id: string): SettingStep | undefined {
	for (const step of level) {
		if (step.id === id) return step;
		const found = findStep(step.nested, id);
		if (found) return found;
	}
	return undefined;
}

export const resourceMapping = {
	/**
	 * Connection settings of the chosen solution: one choice per step. Steps nested under a value
	 * appear once that value is picked and the fields are refreshed (the values picked are sent as
	 * credentialData).
	 */
	async getConnectionSettingsFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		const solutionId = parentId(this, 'solutionId');
		if (!solutionId) return { fields: [] };
		const chosen = mappedValues(this, 'connectionSettings');
		return await load(this, 'the connection settings', async (client) => {
			const { steps } = await fetchConnectionSettings(client, solutionId, chosen);
			const opens = await probeOpens(client, solutionId, steps, chosen);
			const fields: ResourceMapperField[] = [];
			const visit = (level: SettingStep[], depth: number) => {
				for (const step of level) {
					fields.push({
						id: step.id,
						displayName: depth > 0 ? `${'↳ '.repeat(depth)}${step.title}` : step.title,
						required: true,
						defaultMatch: false,
						display: true,
						type: 'options',
						options: step.values.map((option) => ({
							name: choiceName(
								option.title,
								option.value,
								opens.get(`${step.id}\n${String(option.value)}`),
							),
							value: option.value,
						})),
					});
					visit(step.nested, depth + 1);
				}
			};
			visit(steps, 0);
			return { fields, emptyFieldsNotice: 'This solution has no connection settings' };
		});
	},

	/**
	 * Fields of the chosen step: keyed by field code, labelled with the service's label, typed from
	 * the current value.
	 */
	async getFieldValueFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		const bundleId = parentId(this, 'bundleId');
		const stepId = parentId(this, 'stepId');
		if (!bundleId || !stepId) return { fields: [] };
		return await load(this, 'the fields of the step', async (client) => {
			const record = (await bundleData(client, bundleId)).find((candidate) =>
				sameId(candidate.id, stepId),
			);
			const entries = Array.isArray(record?.data) ? record.data.filter(isObject) : [];
			return {
				fields: entries.map((field) => ({
					id: String(field.name),
					displayName: mapperFieldName(String(field.label ?? field.name), shortText(field.value)),
					required: false,
					defaultMatch: false,
					display: true,
					type: typeOf(field.value),
					defaultValue:
						typeof field.value === 'string' ||
						typeof field.value === 'number' ||
						typeof field.value === 'boolean'
							? field.value
							: null,
				})),
				emptyFieldsNotice: record
					? 'This step has no fields'
					: `Step ${stepId} is not part of automation ${bundleId}: pick the step again`,
			};
		});
	},

	/**
	 * Fields of the partner's credential schema: secrets marked, choices from allowedValues, required
	 * kept.
	 */
	async getPartnerFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		const partnerId = parentId(this, 'partnerId');
		if (!partnerId) return { fields: [] };
		return await load(this, "the partner's fields", async (client) => {
			const schema = await partnerSchema(client, partnerId);
			return {
				fields: schema.map((field) => schemaField(field, field.required)),
				emptyFieldsNotice: 'This partner has no credential fields',
			};
		});
	},

	/**
	 * Fields of the connection to the partner's own system (get-own-credential-metadata), as the end
	 * user.
	 */
	async getOwnConnectionFields(this: ILoadOptionsFunctions): Promise<ResourceMapperFields> {
		return await load(this, 'the fields of your own connection', async (client) => {
			const name = client.partner
				? client.partner.partnerName
				: checkPartnerName(this.getCurrentNodeParameter('ownPartnerName'));
			if (!name) return { fields: [], emptyFieldsNotice: 'Set Partner Name first' };
			if (client.partner) client.partner.endUserId(undefined);
			const schema = normalizeSchema(await ownCredentialMetadata(client, name));
			return {
				fields: schema.map((field) => schemaField(field, false)),
				emptyFieldsNotice: 'Your own connection has no fields',
			};
		});
	},
};
