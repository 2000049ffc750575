/**
 * The link token never appears outside the link itself, and the own-connection field values never
 * appear in an output, an error or the console, under every fault kind of the emulator.
 */
import { captureConsole, FAULT_REQUEST_OPTIONS, faultKinds } from '../../support/secrets';
import { runNode, type NodeRun, useEmulator } from '../../support/setup';
import { createLinkParams, linkMade, sharingParams } from './linkSetup';

const ctx = useEmulator();

const SECRET = 'cd98e8a3de9a7ee77daeb0e90bae570f';
// No retry here (the link is a write), with the shared 1 s timeout.
const requestOptions = { ...FAULT_REQUEST_OPTIONS, maxRetries: 0, retryBudget: 2 };

const FAULTS = faultKinds();

/**
 * What a user can see: the output, and the error without the node's parameters; the links taken
 * out.
 */
function shown(run: NodeRun, logged: string[]): string {
	const error = run.error
		? `${run.error.message} ${String(run.error.description)} ${run.error.stack} ${JSON.stringify({ ...run.error, node: undefined })}`
		: '';
	return (JSON.stringify(run.json) + error + logged.join('\n')).replace(
		/https:\/\/connect\.integrations-hub\.com\?id=[^"\\\s]*/g,
		'<link>',
	);
}

const TARGETS: Array<
	[string, () => Promise<{ path: string; parameters: Record<string, unknown> }>]
> = [
	[
		'Create Link',
		async () => ({ path: '/credentials/grant-access-sharing', parameters: createLinkParams() }),
	],
	[
		'Get Link Status',
		async () => {
			const id = await linkMade(ctx.emu);
			return {
				path: `/credentials/grant-access-sharing/${id}`,
				parameters: sharingParams('getLinkStatus', id),
			};
		},
	],
	[
		'Renew Link',
		async () => {
			const id = await linkMade(ctx.emu);
			return {
				path: `/credentials/grant-access-sharing/${id}`,
				parameters: sharingParams('renewLink', id),
			};
		},
	],
	[
		'Set Own Connection',
		async () => ({
			path: `/wl/${ctx.emu.partner.name}/upsert-own-credential`,
			parameters: {
				resource: 'endUser',
				operation: 'setOwnConnection',
				ownPartnerName: ctx.emu.partner.name,
				ownFieldsMode: 'json',
				ownFields: JSON.stringify({ accessToken: SECRET, secretKey: `${SECRET}99` }),
			},
		}),
	],
];

const cases = TARGETS.flatMap(([target, prepare]) =>
	FAULTS.map(([fault, rule]) => [`${fault} on ${target}`, prepare, rule] as const),
);

describe('secrets of connections stay secret', () => {
	const logged = captureConsole();

	it.each(cases)('%s', async (_name, prepare, rule) => {
		const { path, parameters } = await prepare();
		ctx.emu.faults.add({ ...rule, path, times: 10 });
		const run = await runNode(ctx.emu, { ...parameters, requestOptions });
		expect(run.calls.length).toBeGreaterThan(0);
		const text = shown(run, logged);
		for (const link of ctx.emu.links.list()) expect(text).not.toContain(link.token);
		expect(text).not.toContain(SECRET);
		expect(text).not.toContain(SECRET.slice(8, 24));
	});

	it('a link token in an error body is redacted (the transport hides the secret answer keys)', async () => {
		const id = await linkMade(ctx.emu);
		const token = ctx.emu.links.get(id)!.token;
		// A 2xx whose body is cut in half: the token is in the part that is kept.
		ctx.emu.faults.add({
			path: `/credentials/grant-access-sharing/${id}`,
			malformedJson: true,
			status: 502,
		});
		const run = await runNode(ctx.emu, { ...sharingParams('getLinkStatus', id), requestOptions });
		expect(run.error).toBeDefined();
		expect(shown(run, logged)).not.toContain(token);
	});
});
