/**
 * Solution 105, "CRM Leads to Mailer 2": the next version of solution 101 as a partner prepares it
 * in the partner panel, a new solution (what Albato documents about upgrades: docs/fleet.md,
 * "Upgrade to a new solution"; the emulator's guesses: emulator/README.md, "Upgrades"). It is made
 * from 101's templates, with these changes, for Installation → Upgrade's tests and the demo:
 * - template 1051 (from 1011, same title): its step "Send welcome email" is renamed "Send welcome
 *   message" (same place); its field `subject` is renamed `mailSubject`; a new field `replyTo`
 *   comes with a default; the field `onlyNew` of "New lead in CRM" is removed;
 * - template 1052 (from 1012): unchanged;
 * - the same connection settings as 101 (the same step ids, the same partner connections), so the
 *   customer's connections are reused.
 * Every one of these is the emulator's guess (README: "Upgrades").
 */
import type { FieldRecord } from './types';

export const UPGRADE = { from: 101, to: 105 } as const;

export const UPGRADE_SOLUTION = {
	id: UPGRADE.to,
	versions: [
		{
			version: 1,
			status: 'published' as const,
			title: 'CRM Leads to Mailer 2',
			description: 'The next version of CRM Leads to Mailer: a reply-to address, clearer names.',
			dateUpdated: '2024-06-01T09:00:00Z',
		},
	],
};

/** What a template of fixtures.ts holds that the next version changes (no import circle). */
type Step = { title: string; fields: FieldRecord[] };
interface Changed {
	id: number;
	solutionId: number;
	parentAutomation: { id: number; title: string };
	bundle: { title: string; steps: Step[] };
}

const RENAMED_STEPS: Record<string, string> = { 'Send welcome email': 'Send welcome message' };
const RENAMED_FIELDS: Record<string, string> = { subject: 'mailSubject' };
const REMOVED_FIELDS = new Set(['onlyNew']);
const NEW_FIELDS: Record<string, FieldRecord[]> = {
	'Send welcome message': [
		{ name: 'replyTo', label: 'Reply-to address', type: 'string', value: 'support@example.com' },
	],
};

/** One step of the next version: renamed, without the removed fields, with the new ones. */
function nextStep(step: Step): Step {
	const title = RENAMED_STEPS[step.title] ?? step.title;
	const fields = step.fields
		.filter((field) => !REMOVED_FIELDS.has(field.name))
		.map((field) => ({ ...field, name: RENAMED_FIELDS[field.name] ?? field.name }));
	return { title, fields: [...fields, ...(NEW_FIELDS[title] ?? [])] };
}

/** 105's templates, made from 101's: template 10xy becomes 105y. */
export function upgradeTemplates<T extends Changed>(templates: T[]): T[] {
	return templates
		.filter((template) => template.solutionId === UPGRADE.from)
		.map((template) => ({
			...template,
			id: template.id + 40,
			solutionId: UPGRADE.to,
			parentAutomation: {
				id: template.parentAutomation.id + 40,
				title: `${template.parentAutomation.title} 2`,
			},
			bundle: { ...template.bundle, steps: template.bundle.steps.map(nextStep) },
		}));
}
