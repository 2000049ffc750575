// `npm run e2e:n8n`'s fleet examples, each a group of checks in the running n8n (run.mjs), after
// partner mode imported the Albato Partner API credential:
//  - the fleet change example: snapshots kept first, canary, a stop halfway, a resume, then the
//    restore example (fleet.mjs);
//  - the fleet-upgrade and fleet-rollback examples: Preview, upgrade, resume, roll back twice
//    (fleetUpgrade.mjs);
//  - the fleet-watch example on its schedule over several sweeps (fleetWatch.mjs).

import { checkFleetChange } from './fleet.mjs';
import { checkFleetUpgrade } from './fleetUpgrade.mjs';
import { checkFleetWatch } from './fleetWatch.mjs';

/** Title, timing label, check (checks, n8n, emulator, repoRoot). */
export const FLEET_GROUPS = [
	[
		'Fleet change: snapshots, canary, stop halfway, resume, restore',
		'fleet change (s)',
		checkFleetChange,
	],
	[
		'Fleet upgrade: preview, upgrade, resume, roll back (both examples)',
		'fleet upgrade (s)',
		checkFleetUpgrade,
	],
	['Fleet watch: every customer, incidents', 'fleet watch (s)', checkFleetWatch],
];
