/**
 * Every endpoint of the spec is reachable from the node: each operation runs once against the emulator
 * and the request log says which endpoints it called.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import { VALID_CREDENTIAL_DATA } from '../../emulator/fixtures';
import { resources } from '../../nodes/AlbatoSolutions/actions';
import { clearEndUserTokenCache } from '../../nodes/AlbatoSolutions/transport/endUserTokens';
import { runPartner } from './partnerSetup';
import { byId, runNode, useEmulator } from './setup';

const ctx = useEmulator();

/** The spec's 12 endpoints, in its order (12's method and path are the emulator's documented choice). */
const ENDPOINTS = [
	'GET /solution/apps',
	'GET /solution/{id}/credentialists',
	'GET /solution/{id}/templates',
	'POST /solution/{id}/installation',
	'PLAY /solution/installation/{id}',
	'PAUSE /solution/installation/{id}',
	'GET /solution/installation',
	'GET /solution/installation/{id}',
	'GET /bundle/data',
	'PUT /bundle/data/{id}',
	'GET /credentials/{id}/meta',
	'POST /credentials/{id}',
];

const endpointOf = (call: string) => call.replace(/\/\d+(?=\/|$)/g, '/{id}');

const operations: Record<string, Record<string, unknown>> = {
	'solution.getAll': { returnAll: true },
	'solution.getConnectionSettings': { solutionId: byId('id', 101), credentialData: '{"crm": "pipedrive"}' },
	'solution.getTemplates': { solutionId: byId('id', 101) },
	'installation.create': {
		solutionId: byId('id', 102),
		title: 'Coverage',
		connectionSettingsMode: 'json',
		credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[102]),
		templateIds: [1021],
	},
	'installation.get': { installationId: byId('id', 5001), includeBundles: true },
	'installation.getAll': { returnAll: true },
	'installation.start': { installationId: byId('id', 5002) },
	'installation.pause': { installationId: byId('id', 5001) },
	'bundleData.getAll': { installationId: byId('id', 5002), scope: 'bundle', bundleId: 7003 },
	'bundleData.update': { installationId: byId('id', 5002), bundleId: 7003, stepId: 9006, fieldValuesMode: 'json', fieldValues: '{"subject": "x"}' },
	'credential.getSchema': { partnerId: 202 },
	'credential.create': { partnerId: 202, title: 'Chat', fieldsMode: 'json', fields: '{"token": "t0k3n-value"}' },
};

/** Outside the spec: the partner endpoints (Albato's public docs), reached with the Albato Partner API credential. */
const PARTNER_ENDPOINTS = ['POST /wl/{partner}/add-user', 'POST /wl/{partner}/get-user-session-token'];
const partnerOperations: Record<string, Record<string, unknown>> = {
	'endUser.create': {},
	'endUser.getToken': {},
};

describe('API coverage', () => {
	it('lists every operation of the node', () => {
		const all = Object.entries(resources).flatMap(([resource, ops]) => Object.keys(ops).map((op) => `${resource}.${op}`));
		expect([...Object.keys(operations), ...Object.keys(partnerOperations)].sort()).toEqual(all.sort());
	});

	it('names the spec’s endpoints (when the spec is beside the repository)', () => {
		const spec = join(__dirname, '..', '..', '..', 'shared', 'spec', 'solution-installation-service.md');
		if (!existsSync(spec)) return;
		const headings = readFileSync(spec, 'utf8').match(/^#### \d+\. /gm) ?? [];
		expect(headings).toHaveLength(ENDPOINTS.length);
	});

	it('reaches all 12 endpoints', async () => {
		const reached = new Map<string, string[]>();
		for (const [name, parameters] of Object.entries(operations)) {
			const [resource, operation] = name.split('.');
			ctx.emu.reset();
			const run = await runNode(ctx.emu, { resource, operation, ...parameters });
			expect(run.error).toBeUndefined();
			for (const endpoint of new Set(run.calls.map(endpointOf))) reached.set(endpoint, [...(reached.get(endpoint) ?? []), name]);
		}
		expect([...reached.keys()].sort()).toEqual([...ENDPOINTS].sort());
	});

	it('reaches both partner endpoints', async () => {
		ctx.emu.reset();
		clearEndUserTokenCache();
		const reached = new Set<string>();
		for (const [name, parameters] of Object.entries(partnerOperations)) {
			const [resource, operation] = name.split('.');
			const run = await runPartner(ctx.emu, { resource, operation, ...parameters }, { inputItems: [{ customer: 'coverage' }] });
			expect(run.error).toBeUndefined();
			for (const call of run.calls) reached.add(call.replace(`/wl/${ctx.emu.partner.name}/`, '/wl/{partner}/'));
		}
		// Get Token after Create uses the token add-user answered: ask once more with an empty cache.
		clearEndUserTokenCache();
		const run = await runPartner(ctx.emu, { resource: 'endUser', operation: 'getToken' }, { inputItems: [{ customer: 'coverage' }] });
		for (const call of run.calls) reached.add(call.replace(`/wl/${ctx.emu.partner.name}/`, '/wl/{partner}/'));
		expect([...reached].sort()).toEqual(PARTNER_ENDPOINTS);
	});
});
