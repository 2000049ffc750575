/**
 * The editor's layout, as n8n's own nodes lay it out: Resource → Operation → End User ID → the
 * rest, for every operation of every resource; mappers headed by what they hold; no parameter name
 * shared by two resources' different fields (n8n would carry a value over when the resource
 * changes).
 */
import type { INodeProperties } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { forTests } from '../../../nodes/AlbatoSolutions/actions';
import { CURRENT_NODE_VERSION } from '../../../nodes/shared/descriptions/versions';

const { resources } = forTests;

/**
 * The editor of a new node (the current version): properties kept for old versions are left out.
 */
const properties = new AlbatoSolutions().description.properties.filter((property) => {
	const versions = property.displayOptions?.show?.['@version'];
	return !versions || NodeHelpers.checkConditions(versions, [CURRENT_NODE_VERSION]);
});

/** Whether a property shows for these values (only plain `show` conditions on the given names). */
function shows(property: INodeProperties, values: Record<string, string>): boolean {
	const show = property.displayOptions?.show ?? {};
	return Object.entries(show).every(
		([name, allowed]) =>
			!(name in values) || (allowed as unknown[]).includes(values[name] as never),
	);
}

const visible = (resource: string, operation: string) =>
	properties
		.filter((property) => shows(property, { authentication: 'partnerApi', resource, operation }))
		.map((property) => property.name);

const pairs = Object.entries(resources).flatMap(([resource, operations]) =>
	Object.keys(operations).map((operation) => [resource, operation] as const),
);

describe('layout: Resource → Operation → End User ID → the rest', () => {
	it('covers every operation', () => expect(pairs.length).toBeGreaterThan(10));

	it.each(pairs)('%s → %s', (resource, operation) => {
		const names = visible(resource, operation);
		expect(names.slice(0, 4)).toEqual(['authentication', 'resource', 'operation', 'endUserId']);
		expect(names.filter((name) => name === 'operation')).toHaveLength(1);
	});

	it('End User ID shows only in partner mode', () => {
		const endUserId = properties.find((property) => property.name === 'endUserId')!;
		expect(shows(endUserId, { authentication: 'accessToken' })).toBe(false);
	});
});

describe('mappers say what they hold', () => {
	const mappers = properties.filter((property) => property.type === 'resourceMapper');

	it('each is headed by its own name instead of n8n\'s "Values to Send"', () => {
		expect(
			mappers.map((mapper) => [
				mapper.displayName,
				mapper.typeOptions?.resourceMapper?.valuesLabel,
			]),
		).toEqual([
			['Connection Settings', 'Connection Settings'], // Installation → Create
			['Connection Settings', 'Connection Settings'], // Installation → Ensure
			['Connection Settings', 'Connection Settings'], // Installation → Upgrade
			['Field Values', 'Field Values'],
			['Connection Fields', 'Connection Fields'],
			['Own Connection Fields', 'Own Connection Fields'],
		]);
	});

	it('the connection settings mapper says how nested steps appear', () => {
		const notice = properties.find((property) => property.name === 'connectionSettingsNotice');
		expect(notice?.type).toBe('notice');
		expect(notice?.displayName).toMatch(/Refresh Step List/);
	});
});

describe('parameter names never carry a value over between resources', () => {
	it('a name used by two resources is the same kind of field in both', () => {
		const byName = new Map<string, Set<string>>();
		for (const property of properties) {
			const shownFor = (property.displayOptions?.show?.resource as string[] | undefined) ?? [];
			if (shownFor.length === 0) continue;
			const key = `${property.type}:${property.displayName}`;
			const kinds = byName.get(property.name) ?? new Set<string>();
			kinds.add(key);
			byName.set(property.name, kinds);
		}
		// credentialData is the same data in both places (step ID → chosen value): carrying it over
		// helps.
		const shared = ['operation', 'options', 'credentialData'];
		const clashes = [...byName].filter(([name, kinds]) => kinds.size > 1 && !shared.includes(name));
		expect(clashes.map(([name, kinds]) => `${name}: ${[...kinds].join(' | ')}`)).toEqual([]);
	});

	it("Credential → Create names the connection connectionName, not Installation's title", () => {
		expect(visible('credential', 'create')).toContain('connectionName');
		expect(visible('credential', 'create')).not.toContain('title');
	});

	it('the app to connect has no invalid default and says it is not your partner account', () => {
		const app = properties.find((property) => property.name === 'partnerId')!;
		expect(app).toMatchObject({ displayName: 'App ID', default: '', required: true });
		expect(app.description).toMatch(/not your own partner account/);
	});
});
