/** The trigger's description follows n8n's trigger conventions (and its lint). */
import type { INodePropertyOptions } from 'n8n-workflow';

import { INCIDENT_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/incidentPoll';
import { USAGE_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/usagePoll';
import { RUN_EVENTS } from '../../nodes/AlbatoSolutionsTrigger/runEvents';
import { AlbatoSolutions } from '../../nodes/AlbatoSolutions/AlbatoSolutions.node';
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { EVENTS } from '../../nodes/AlbatoSolutionsTrigger/installationEvents';
import codex from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node.json';

const { description } = new AlbatoSolutionsTrigger();

describe('trigger description', () => {
	it('is a polling trigger with no input, not usable as a tool, sharing the credential', () => {
		expect(description).toMatchObject({
			name: 'albatoSolutionsTrigger',
			displayName: 'Albato Solutions Trigger',
			group: ['trigger'],
			polling: true,
			inputs: [],
		});
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual(new AlbatoSolutions().description.credentials);
		expect(codex.node).toBe(`n8n-nodes-albato-solutions.${description.name}`);
	});

	it('offers every event, sorted by name', () => {
		const events = description.properties.find((property) => property.name === 'events')!;
		const options = events.options as INodePropertyOptions[];
		expect(options.map((option) => option.value).sort()).toEqual(
			[...EVENTS, ...RUN_EVENTS, ...INCIDENT_EVENTS, ...USAGE_EVENTS].sort(),
		);
		const names = options.map((option) => option.name);
		expect(names).toEqual([...names].sort());
	});
});
