/**
 * Installation → Ensure's description: Field Values' Step and Field are pickers
 * that follow their own entry's automation; the new inputs default to what saved workflows had
 * (Define Below), so a workflow saved before them runs as it did; Title says it is Ensure's key.
 */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import { AlbatoSolutions } from '../../../nodes/AlbatoSolutions/AlbatoSolutions.node';

const properties = new AlbatoSolutions().description.properties;
const ensure = properties.filter((property) =>
	property.displayOptions?.show?.operation?.includes('ensure'),
);
const named = (name: string) => ensure.find((property) => property.name === name)!;

describe('Installation → Ensure, description', () => {
	it('Field Values: Step and Field pick from the entry’s own automation', () => {
		const entry = (named('desiredFields').options as INodePropertyCollection[])[0].values;
		const byName = (name: string) => entry.find((value) => value.name === name)!;
		expect(byName('step')).toMatchObject({
			displayName: 'Step Name or ID',
			type: 'options',
			default: '',
			typeOptions: {
				loadOptionsMethod: 'getEnsureSteps',
				loadOptionsDependsOn: ['&automation', 'solutionId.value', 'title'],
			},
		});
		expect(byName('code')).toMatchObject({
			displayName: 'Field Name or ID',
			type: 'options',
			default: '',
			typeOptions: {
				loadOptionsMethod: 'getEnsureFields',
				loadOptionsDependsOn: ['&automation', '&step', 'solutionId.value', 'title'],
			},
		});
		expect(byName('value')).toMatchObject({ type: 'string', default: '' });
	});

	it('new inputs default to the parameters saved workflows have', () => {
		expect(named('desiredStateMode').default).toBe('parameters');
		expect(named('desiredFieldsMode').default).toBe('fields');
		const shownBy = (property: INodeProperties) => property.displayOptions?.show ?? {};
		for (const name of ['solutionId', 'title', 'templateIds', 'desiredStatus', 'desiredFieldsMode'])
			expect(shownBy(named(name)).desiredStateMode).toEqual(['parameters']);
		expect(shownBy(named('snapshot')).desiredStateMode).toEqual(['snapshot']);
		expect(shownBy(named('desiredFields')).desiredFieldsMode).toEqual(['fields']);
		expect(shownBy(named('desiredFieldsJson')).desiredFieldsMode).toEqual(['json']);
	});

	it('Title says the exact title is how Ensure finds the installation', () => {
		expect(named('title').description).toMatch(
			/^The exact title is how Ensure finds the installation/,
		);
		const create = properties.find(
			(property) =>
				property.name === 'title' && property.displayOptions?.show?.operation?.includes('create'),
		)!;
		expect(create.description).toBe(
			'Name that identifies this installation, e.g. the customer it is for',
		);
	});
});
