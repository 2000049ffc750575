/**
 * An option list that cannot load (End User ID unresolved after a reload, no installation yet)
 * while its field holds a saved value. n8n shows a value its list does not hold as a red, empty
 * field, which hides what the node will send: the saved values are offered as themselves instead,
 * each saying why the list is not there. With nothing saved, the list's own error is shown (n8n
 * shows only its message: the package's advice is in it).
 */
import type { ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

type Saved = string | number;

/** The field's saved values (one, or several in a multi-options field); never an expression. */
function savedValues(ctx: ILoadOptionsFunctions, parameter: string): Saved[] {
	let value: unknown;
	try {
		value = ctx.getCurrentNodeParameter(parameter);
	} catch {
		return [];
	}
	const list = Array.isArray(value) ? (value as unknown[]) : [value];
	return list.filter(
		(entry): entry is Saved =>
			(typeof entry === 'number' && Number.isFinite(entry)) ||
			(typeof entry === 'string' && entry.trim() !== '' && !entry.startsWith('=')),
	);
}

/** A saved value as it shows: a number as "ID 1011", a title or code as itself. */
const label = (value: Saved) => (typeof value === 'number' ? `ID ${value}` : value);

export async function keepingSaved(
	ctx: ILoadOptionsFunctions,
	parameter: string,
	list: () => Promise<INodePropertyOptions[]>,
): Promise<INodePropertyOptions[]> {
	try {
		return await list();
	} catch (error) {
		const saved = savedValues(ctx, parameter);
		// load() gives a NodeOperationError or NodeApiError, as the editor shows it.
		if (saved.length === 0) throw error as Error;
		const why = (error as Error).message.replace(/\.?$/, '.');
		const description = `The list could not load: ${why} The saved value is kept as it is.`;
		return saved.map((value) => ({
			name: `${label(value)} (saved; list not loaded)`,
			value,
			description,
		}));
	}
}
