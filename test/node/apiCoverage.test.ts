/**
 * Every endpoint of the spec is reachable from the node: each operation (test/support/operations.ts)
 * runs once against the emulator, and the request log must show exactly the endpoints its row
 * names. Every endpoint the operations call is then accounted for: the spec's 12 (the manifest,
 * test/apiCoverage.manifest.json, so this never depends on the spec being present; when the spec is
 * found, beside the repository or at $ALBATO_SPEC, the manifest is also checked against it) or one
 * of the documented endpoints outside it, the manifest's other sections.
 */
import { existsSync, readFileSync } from 'fs';
import { join } from 'path';

import manifest from '../apiCoverage.manifest.json';
import {
	endpointOf,
	nodeOperations,
	OPERATIONS,
	prepare,
	runOperation,
} from '../support/operations';
import { useEmulator } from '../support/setup';

const ctx = useEmulator();

interface ManifestEntry {
	spec: number;
	title: string;
	call: string;
	excluded?: string;
}
const ENDPOINTS: ManifestEntry[] = manifest.endpoints;

const SPEC = [
	process.env.ALBATO_SPEC,
	join(__dirname, '..', '..', '..', 'shared', 'spec', 'solution-installation-service.md'),
].find((file): file is string => !!file && existsSync(file));

/** A manifest section's calls. */
const callsOf = (section: { endpoints: Array<{ call: string }> }) =>
	section.endpoints.map((entry) => entry.call);

/**
 * Outside the spec: the partner endpoints (Albato's public docs), with the Albato Partner API
 * credential: the users' lifecycle, and the billing methods.
 */
const PARTNER_ENDPOINTS = [...callsOf(manifest.partner), ...callsOf(manifest.billing)].sort();

/** Outside the spec: run history, and the connections (connection by link, own connection). */
const OTHER_ENDPOINTS = [...callsOf(manifest.history), ...callsOf(manifest.connections)];

/** The operations whose row names this endpoint. */
const callersOf = (call: string) =>
	OPERATIONS.filter((row) => row.calls.includes(call)).map((row) => row.key);

const calledBy = (rows: typeof OPERATIONS) => new Set(rows.flatMap((row) => row.calls));

describe('API coverage', () => {
	it('has a row for every operation of the node (test/support/operations.ts)', () => {
		expect(OPERATIONS.map((row) => row.key).sort()).toEqual(nodeOperations().sort());
	});

	it('has a manifest of the 12 endpoints, each covered or excluded with a reason', () => {
		expect(ENDPOINTS.map((entry) => entry.spec)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
		expect(new Set(ENDPOINTS.map((entry) => entry.call)).size).toBe(12);
		for (const entry of ENDPOINTS)
			expect([entry.call, callersOf(entry.call).length > 0 || !!entry.excluded]).toEqual([
				entry.call,
				true,
			]);
	});

	(SPEC ? it : it.skip)('matches the spec’s endpoints (when the spec is found)', () => {
		const spec = readFileSync(SPEC!, 'utf8');
		const sections = [...spec.matchAll(/^#### (\d+)\. (.+)\n((?:- .*\n)+)/gm)];
		expect(sections.map(([, number, title]) => ({ spec: Number(number), title }))).toEqual(
			ENDPOINTS.map(({ spec: number, title }) => ({ spec: number, title })),
		);
		let shownChecked = 0;
		for (const [, number, , body] of sections) {
			const shown = /\b(GET|POST|PUT|PLAY|PAUSE) (\/[^\s?]+)/.exec(body);
			if (!shown) continue; // the spec does not show this call (12): the manifest notes its choice
			const call = `${shown[1]} ${shown[2].replace(/\{[^}]+\}/g, '{id}')}`;
			expect(ENDPOINTS[Number(number) - 1].call).toBe(call);
			shownChecked++;
		}
		expect(shownChecked).toBeGreaterThanOrEqual(11);
	});

	it.each(OPERATIONS.map((row) => [row.key, row] as const))(
		'%s calls exactly the endpoints of its row',
		async (_key, row) => {
			const made = await prepare(ctx.emu, row);
			const run = await runOperation(ctx.emu, row, made);
			expect(run.error).toBeUndefined();
			const reached = new Set(run.calls.map((call) => endpointOf(ctx.emu, call)));
			expect([...reached].sort()).toEqual([...row.calls].sort());
		},
	);

	it('every endpoint called is the spec’s (the manifest) or a documented one outside it', () => {
		const spec = ENDPOINTS.filter((entry) => !entry.excluded).map((entry) => entry.call);
		const known = [...spec, ...PARTNER_ENDPOINTS, ...OTHER_ENDPOINTS];
		expect(new Set(known).size).toBe(known.length);
		expect([...calledBy(OPERATIONS)].sort()).toEqual(known.sort());
	});

	it('reaches every partner endpoint with the partner credential', () => {
		const partnerRows = OPERATIONS.filter((row) => row.credential === 'partner');
		expect([...calledBy(partnerRows)].sort()).toEqual(PARTNER_ENDPOINTS);
	});
});
