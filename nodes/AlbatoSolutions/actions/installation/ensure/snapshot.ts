/**
 * The snapshot: an installation written as exactly the input Installation → Ensure takes (solution,
 * title, status, templates and every field value with its JSON type). Installation → Get Snapshot
 * writes it; Ensure's "Snapshot (JSON)" input reads it back, refusing anything that does not fit
 * before a request is sent, so a snapshot kept anywhere (a Data Table, a file) restores exactly.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { bundlesOf, stepsOf } from '../../../../shared/readers/bundles';
import {
	ACTIVE,
	fieldsOf,
	idOf,
	isObject,
	PAUSED,
	positiveIdOf,
	sameId,
	solutionIdOf,
	statusOf,
} from '../../../../shared/readers/shapes';
import { unsafeKeyPath } from '../../objectParameters';
import { describeValue, MAX_TITLE_LENGTH } from '../../params';
import { type DesiredField, fieldValuesFromJson } from './desiredFields';

type DesiredStatus = 'active' | 'paused' | 'leave';

interface Snapshot extends IDataObject {
	solutionId: number;
	title: string;
	status: DesiredStatus;
	templateIds: number[];
	fieldValues: IDataObject[];
}

/**
 * Every key a snapshot may hold: the five Get Snapshot writes, and two it writes when the service
 * shows them.
 */
const REQUIRED = ['solutionId', 'title', 'status', 'templateIds', 'fieldValues'];
const OPTIONAL = ['connectionSettings', 'settings'];

export const SNAPSHOT_EXAMPLE =
	'{"solutionId": 101, "title": "Leads for ACME", "status": "active", "templateIds": [1011], "fieldValues": [{"automation": 1011, "step": "Send welcome email", "code": "subject", "label": "Subject", "value": "Welcome aboard"}]}';

/** A snapshot as Ensure reads it. */
interface CheckedSnapshot {
	solutionId: number;
	title: string;
	status: DesiredStatus;
	templateIds: number[];
	desired: DesiredField[];
	/** Only needed when the installation is missing and must be installed again. */
	connectionSettings?: IDataObject;
	settings?: IDataObject;
}

/** Refuses a snapshot, naming what does not fit. */
type Refuse = (detail: string) => NodeOperationError;

/**
 * Reads and checks a snapshot (an object from an expression, or JSON text); nothing is sent when it
 * does not fit.
 */
export function readSnapshot(
	ctx: IExecuteFunctions,
	raw: unknown,
	itemIndex: number,
	label = 'Snapshot',
): CheckedSnapshot {
	const fail: Refuse = (detail) =>
		new NodeOperationError(ctx.getNode(), `${label} (item ${itemIndex}): ${detail}`, {
			itemIndex,
			description: `Nothing was sent for this item. A snapshot is what Installation → Get Snapshot outputs, e.g. {{ $json }} after it: ${SNAPSHOT_EXAMPLE}`,
		});
	const value = snapshotObject(raw, fail);
	const { solutionId, title, status, templateIds } = checkedKeys(value, fail);
	for (const key of OPTIONAL)
		if (value[key] !== undefined && !isObject(value[key]))
			throw fail(`"${key}" must be an object, got ${describeValue(value[key])}`);
	if (!Array.isArray(value.fieldValues))
		throw fail(`"fieldValues" must be a list, got ${describeValue(value.fieldValues)}`);
	return {
		solutionId,
		title,
		status,
		templateIds,
		desired: fieldValuesFromJson(ctx, value.fieldValues, `${label} → fieldValues`, itemIndex),
		connectionSettings: value.connectionSettings as IDataObject | undefined,
		settings: value.settings as IDataObject | undefined,
	};
}

/** The snapshot as an object holding every required key and no unknown one. */
function snapshotObject(raw: unknown, fail: Refuse): IDataObject {
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') throw fail('is empty');
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw fail(`is not valid JSON: ${(error as Error).message}`);
		}
	}
	if (!isObject(value)) throw fail(`must be an object, got ${describeValue(value)}`);
	const unsafe = unsafeKeyPath(value);
	if (unsafe) throw fail(`has the key "${unsafe}", which cannot be sent`);
	const unknown = Object.keys(value).filter(
		(key) => !REQUIRED.includes(key) && !OPTIONAL.includes(key),
	);
	if (unknown.length)
		throw fail(
			`has the unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `"${key}"`).join(', ')}; a snapshot holds only ${[...REQUIRED, ...OPTIONAL].join(', ')}`,
		);
	const missing = REQUIRED.filter((key) => value[key] === undefined);
	if (missing.length) throw fail(`has no ${missing.map((key) => `"${key}"`).join(', ')}`);
	return value;
}

/** Solution, title, status and templates, each of its type. */
function checkedKeys(
	value: IDataObject,
	fail: Refuse,
): Pick<CheckedSnapshot, 'solutionId' | 'title' | 'status' | 'templateIds'> {
	const solutionId = positiveIdOf(value.solutionId);
	if (solutionId === undefined || typeof value.solutionId !== 'number')
		throw fail(
			`"solutionId" must be a solution ID (a whole number), got ${describeValue(value.solutionId)}`,
		);
	const title = value.title;
	if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE_LENGTH)
		throw fail(
			`"title" must be a non-empty text of at most ${MAX_TITLE_LENGTH} characters, got ${describeValue(title)}`,
		);
	const status = value.status;
	if (status !== 'active' && status !== 'paused' && status !== 'leave')
		throw fail(`"status" must be "active", "paused" or "leave", got ${describeValue(status)}`);
	const templates = value.templateIds;
	const isTemplateId = (id: unknown) => typeof id === 'number' && positiveIdOf(id) !== undefined;
	if (!Array.isArray(templates) || templates.length === 0 || !templates.every(isTemplateId))
		throw fail(
			`"templateIds" must be a non-empty list of template IDs (whole numbers), got ${describeValue(templates)}`,
		);
	const templateIds = [...new Set(templates as number[])];
	return { solutionId, title: title.trim(), status, templateIds };
}

/**
 * An installation (read with its automations and steps) and each automation's bundle data, as a
 * snapshot. Keys that work in another installation of the solution too: an automation by its
 * template ID (its own ID only when two automations share a template), a step by its title (its ID
 * when the title is empty or shared). Values as the service holds them, with their types.
 */
export function snapshotOf(
	installation: IDataObject,
	records: Map<number, IDataObject[]>,
): Snapshot {
	const bundles = bundlesOf(installation);
	const templateCount = new Map<string, number>();
	for (const bundle of bundles) {
		const template = idOf(bundle.templateId);
		if (template !== undefined)
			templateCount.set(String(template), (templateCount.get(String(template)) ?? 0) + 1);
	}
	const fieldValues: IDataObject[] = [];
	for (const bundle of bundles) {
		const template = idOf(bundle.templateId);
		const automation =
			template !== undefined && templateCount.get(String(template)) === 1
				? template
				: idOf(bundle.id);
		const steps = stepsOf(bundle);
		const stepRecords = records.get(Number(bundle.id)) ?? [];
		const titleOf = (stepId: unknown, record?: IDataObject) =>
			String(steps.find((step) => sameId(step.id, stepId))?.title ?? record?.title ?? '').trim();
		const titles = stepRecords.map((record) => titleOf(record.id, record));
		stepRecords.forEach((record, i) => {
			const title = titles[i];
			const step =
				title !== '' && titles.filter((other) => other === title).length === 1
					? title
					: idOf(record.id);
			for (const field of fieldsOf(record.data))
				fieldValues.push({
					automation,
					step,
					code: field.name,
					label: field.label,
					value: (field.value === undefined ? null : field.value) as IDataObject[string],
				});
		});
	}
	const status = statusOf(installation);
	const snapshot: Snapshot = {
		solutionId: Number(solutionIdOf(installation)),
		title: String(installation.title ?? ''),
		status: status === ACTIVE ? 'active' : status === PAUSED ? 'paused' : 'leave',
		templateIds: [
			...new Set(
				bundles
					.map((bundle) => positiveIdOf(bundle.templateId))
					.filter((id): id is number => id !== undefined),
			),
		],
		fieldValues,
	};
	if (isObject(installation.credentialData) && Object.keys(installation.credentialData).length)
		snapshot.connectionSettings = installation.credentialData;
	if (isObject(installation.settings) && Object.keys(installation.settings).length)
		snapshot.settings = installation.settings;
	return snapshot;
}
