/**
 * Installation → Ensure through n8n-core against the emulator: present or absent × active or paused
 * × field values equal or different, each under every fault kind (the run may fail; running it
 * again converges), and two Ensures at once in one process. Every case ends in the same state:
 * exactly one installation with the title, in the asked status, with the asked values.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { VALID_CREDENTIAL_DATA } from '../../../emulator/fixtures';
import type { FaultRule } from '../../../emulator/types';
import { forTests } from '../../../nodes/AlbatoSolutions/actions/safeInstall/installLedger';
import { byId, runNode, useEmulator } from '../../support/setup';
import { useShortWaits } from '../../support/waits';

const { forgetClaims } = forTests;

const ctx = useEmulator();
/** The emulator's state here changes by count, never by time: the node's waits can be short. */
const SHORT = 20;
const waits = useShortWaits(SHORT);

const SUBJECT = { automation: 1011, step: 'Send welcome email', code: 'subject' };
const ensure = (title: string, subject: string, extra: INodeParameters = {}): INodeParameters => ({
	resource: 'installation',
	operation: 'ensure',
	solutionId: byId('id', 101),
	title,
	connectionSettingsMode: 'json',
	credentialData: JSON.stringify(VALID_CREDENTIAL_DATA[101]),
	templateIds: [1011, 1012],
	desiredFields: { field: [{ ...SUBJECT, value: subject }] },
	desiredStatus: 'active',
	options: { lostAnswerCheck: 0.5 },
	requestOptions: { maxRetries: 2, retryBudget: 2, timeout: 1 },
	...extra,
});
const titled = (title: string) =>
	[...ctx.emu.state.installations.values()].filter((i) => i.title === title);
/**
 * The subject field of the "Send welcome email" step of an installation's template-1011 automation.
 */
function subjectOf(installationId: number): unknown {
	const bundle = [...ctx.emu.state.bundles.values()].find(
		(b) => b.installationId === installationId && b.templateId === 1011,
	)!;
	const step = ctx.emu.state.bundleData.get(bundle.stepIds[1])!;
	return step.fields.find((f) => f.name === 'subject')?.value;
}
const writes = (calls: string[]) => calls.filter((call) => !call.startsWith('GET'));

describe('Installation → Ensure, without faults', () => {
	it('absent: installs, sets the field, starts it; run again: unchanged, nothing written', async () => {
		const first = await runNode(ctx.emu, ensure('Acme', 'Hello Acme'));
		expect(first.error).toBeUndefined();
		const [installation] = titled('Acme');
		expect(first.json[0]).toMatchObject({
			installation: { id: installation.id, status: 1 },
			created: true,
			changed: { fields: [{ code: 'subject', from: 'Welcome aboard', to: 'Hello Acme' }] },
			unchanged: false,
		});
		expect(installation.status).toBe(1);
		expect(subjectOf(installation.id)).toBe('Hello Acme');

		const again = await runNode(ctx.emu, ensure('Acme', 'Hello Acme'));
		expect(again.json[0]).toMatchObject({
			created: false,
			changed: { fields: [], status: null },
			unchanged: true,
		});
		expect(writes(again.calls)).toEqual([]);
		expect(titled('Acme')).toHaveLength(1);
	});

	it('present and active, one field differs: pause, one PUT, start again', async () => {
		const run = await runNode(ctx.emu, ensure('Leads for ACME', 'New subject'));
		expect(run.error).toBeUndefined();
		expect(writes(run.calls)).toEqual([
			'PAUSE /solution/installation/5001',
			'PUT /bundle/data/9002',
			'PLAY /solution/installation/5001',
		]);
		expect(run.json[0]).toMatchObject({ created: false, changed: { status: null } });
		expect(subjectOf(5001)).toBe('New subject');
		expect(ctx.emu.state.installations.get(5001)?.status).toBe(1);
	});

	it('present and paused, fields equal, asked active: only PLAY', async () => {
		const run = await runNode(ctx.emu, ensure('Leads for Globex', 'Welcome aboard'));
		expect(writes(run.calls)).toEqual(['PLAY /solution/installation/5002']);
		expect(run.json[0]).toMatchObject({
			changed: { fields: [], status: { from: 0, to: 1 } },
			unchanged: false,
		});
	});

	it('present and active, asked paused, a field differs: PAUSE, PUT, no restart', async () => {
		const run = await runNode(
			ctx.emu,
			ensure('Leads for ACME', 'Quiet', { desiredStatus: 'paused' }),
		);
		expect(writes(run.calls)).toEqual([
			'PAUSE /solution/installation/5001',
			'PUT /bundle/data/9002',
		]);
		expect(ctx.emu.state.installations.get(5001)?.status).toBe(0);
		expect(run.json[0]).toMatchObject({ changed: { status: { from: 1, to: 0 } } });
	});

	it('a key that matches nothing fails before any write, naming it', async () => {
		const run = await runNode(
			ctx.emu,
			ensure('Leads for ACME', 'x', {
				desiredFields: { field: [{ ...SUBJECT, step: 'No such step', value: 'x' }] },
			}),
		);
		expect(run.error?.message).toBe(
			'Field Values: no step "No such step" in automation "1011" in installation 5001. Its steps: "New lead in CRM", "Send welcome email"',
		);
		expect(writes(run.calls)).toEqual([]);
	});

	it('two Ensures at once in one process (2 items in flight): one installation, one item created it', async () => {
		const run = await runNode(
			ctx.emu,
			ensure('={{ $json.title }}', 'Twice', { requestOptions: { concurrency: 4 } }),
			{
				inputItems: [{ title: 'Once' }, { title: 'Once' }],
			},
		);
		expect(run.error).toBeUndefined();
		expect(titled('Once')).toHaveLength(1);
		expect(run.json.map((json) => json.created).sort()).toEqual([false, true]);
		expect(run.json.map((json) => (json.installation as IDataObject).id)).toEqual([
			titled('Once')[0].id,
			titled('Once')[0].id,
		]);
		expect(titled('Once')[0].status).toBe(1);
	});
});

/**
 * The Timeout (seconds) of the runs with a slow answer: shorter than the others' (1 s), so as to
 * wait less.
 */
const SLOW_TIMEOUT = 0.5;

/** Every fault kind, on each kind of call Ensure makes. */
const FAULTS: Array<[string, Omit<FaultRule, 'path' | 'method'>]> = [
	['429', { status: 429, retryAfterSeconds: 0 }],
	['503', { status: 503 }],
	['500', { status: 500 }],
	['connection reset before', { reset: 'before' }],
	['answer lost (reset after)', { reset: 'after' }],
	['malformed JSON 2xx', { malformedJson: true }],
	['200 success: false', { successFalse: true }],
	// 0.2 s longer than SLOW_TIMEOUT, the Timeout of these runs: it lands while the Lost
	// Answer Check (0.5 s) still reads the list.
	['slower than the Timeout', { delayMs: 700 }],
];
const CALLS: Array<[string, string, RegExp]> = [
	['list', 'GET', /^\/solution\/installation$/],
	['install', 'POST', /^\/solution\/\d+\/installation$/],
	['detail', 'GET', /^\/solution\/installation\/\d+$/],
	['bundle data', 'GET', /^\/bundle\/data$/],
	['PUT', 'PUT', /^\/bundle\/data\/\d+$/],
	['PAUSE', 'PAUSE', /^\/solution\/installation\/\d+$/],
	['PLAY', 'PLAY', /^\/solution\/installation\/\d+$/],
];
const STARTS: Array<[string, string, 0 | 1 | undefined]> = [
	['absent', 'Fresh', undefined],
	['present, active', 'Leads for ACME', 1],
	['present, paused', 'Leads for Globex', 0],
];

describe.each(STARTS)('Installation → Ensure under faults: %s', (_start, title) => {
	it.each(
		FAULTS.flatMap(([fault, rule]) =>
			CALLS.flatMap(([call, method, path]) =>
				['equal', 'different'].map(
					(fields) =>
						[`${fault} on ${call}, fields ${fields}`, { method, path, ...rule }, fields] as const,
				),
			),
		),
	)('%s: converges, at most one run again', async (_label, rule, fields) => {
		const subject = fields === 'equal' ? 'Welcome aboard' : 'Changed';
		ctx.emu.faults.add(rule);
		// A delayed request races the node's real waits (the Lost Answer Check may see it land).
		waits.divisor = rule.delayMs ? 1 : SHORT;
		try {
			await ensureConverges(
				title,
				subject,
				rule.delayMs
					? { requestOptions: { maxRetries: 2, retryBudget: 2, timeout: SLOW_TIMEOUT } }
					: {},
			);
		} finally {
			// A request that timed out here is still applied by the emulator when its delay ends: let it
			// land before the next test resets the emulator, so it cannot change that test's state.
			await delayedRequestsLanded();
		}
	});
});

/** Until every request the emulator delayed has been applied and answered (or reset). */
async function delayedRequestsLanded() {
	const delayed = () =>
		ctx.emu.requests.filter((entry) => entry.fault?.startsWith('delay') && entry.status === 0);
	while (delayed().length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Runs Ensure; when it fails, runs it again (as a user would): one installation, as asked. */
async function ensureConverges(title: string, subject: string, extra: INodeParameters = {}) {
	const first = await runNode(ctx.emu, ensure(title, subject, extra));
	if (first.error) {
		// A failure must say what happened; running it again converges (it is safe to repeat).
		expect(first.error.message.length).toBeGreaterThan(0);
		let again = await runNode(ctx.emu, ensure(title, subject, extra));
		if (again.error) {
			// An install with an unknown outcome (5xx, reset, timeout after the POST) may still appear in
			// the list: Ensure refuses that title until the refusal lapses, never installs twice.
			expect(again.error.message).toBe(
				`An earlier install of "${title}" has an unknown outcome: it may exist but not be listed yet`,
			);
			expect(titled(title).length).toBeLessThanOrEqual(1);
			forgetClaims(); // the refusal lapses (15 minutes)
			again = await runNode(ctx.emu, ensure(title, subject, extra));
		}
		expect(again.error).toBeUndefined();
	}
	const all = titled(title);
	expect(all).toHaveLength(1);
	expect(all[0].status).toBe(1);
	expect(subjectOf(all[0].id)).toBe(subject);
}
