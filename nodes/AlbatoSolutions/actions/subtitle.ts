import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The canvas subtitle as the user reads the menus: "Create: End User", "Get Link Status:
 * Credential", not the saved values ("create: endUser"). n8n evaluates the subtitle as an
 * expression over the node's parameters, so the names travel in it as two flat lookup objects
 * (their text holds no "}}", which would end the expression early); a value not found shows as is.
 */
export function subtitleOf(
	resourceOptions: INodePropertyOptions[],
	operationNames: Record<string, Record<string, string>>,
): string {
	const resourceNames = Object.fromEntries(resourceOptions.map((o) => [o.value, o.name]));
	const byKey = Object.fromEntries(
		Object.entries(operationNames).flatMap(([resource, names]) =>
			Object.entries(names).map(([key, name]) => [`${resource}.${key}`, name]),
		),
	);
	const operation = `(${JSON.stringify(byKey)})[$parameter["resource"] + "." + $parameter["operation"]] || $parameter["operation"]`;
	const resource = `(${JSON.stringify(resourceNames)})[$parameter["resource"]] || $parameter["resource"]`;
	return `={{ (${operation}) + ": " + (${resource}) }}`;
}
