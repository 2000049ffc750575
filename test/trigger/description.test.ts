/** The trigger's description follows n8n's trigger conventions (and its lint). */
import { NodeHelpers, type INodePropertyOptions } from 'n8n-workflow';

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

describe('fields shown only for the events they act on', () => {
	const shown = (name: string, events: string[]) => {
		const property = description.properties.find((p) => p.name === name)!;
		return NodeHelpers.displayParameter({ events }, property, { typeVersion: 2 }, description);
	};

	it('Solution: for installation, run and automation events, not for usage events alone', () => {
		expect(shown('solutionId', [USAGE_EVENTS[0]])).toBe(false);
		expect(shown('solutionId', [...USAGE_EVENTS])).toBe(false);
		for (const event of [EVENTS[0], RUN_EVENTS[0], INCIDENT_EVENTS[0]])
			expect([event, shown('solutionId', [event])]).toEqual([event, true]);
		expect(shown('solutionId', [USAGE_EVENTS[0], RUN_EVENTS[0]])).toBe(true);
	});

	it('Running Low Below: for usage events only; Installation ID (Run Events): for run and automation events', () => {
		expect(shown('runningLowBelow', [EVENTS[0]])).toBe(false);
		expect(shown('runningLowBelow', [USAGE_EVENTS[0]])).toBe(true);
		expect(shown('runInstallationId', [USAGE_EVENTS[0]])).toBe(false);
		expect(shown('runInstallationId', [EVENTS[0]])).toBe(false);
	});
});
