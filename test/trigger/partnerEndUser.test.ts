/** The trigger in partner mode: every event item says which end user it was polled for. */
import { AlbatoSolutionsTrigger } from '../../nodes/AlbatoSolutionsTrigger/AlbatoSolutionsTrigger.node';
import { pollContext } from '../../harness';
import {
	addUsers,
	installFor as install,
	partnerCredential,
	usePartnerEmulator,
} from '../support/partnerSetup';

const ctx = usePartnerEmulator();

beforeEach(async () => addUsers(ctx.emu, ['c-7']));

const installFor = (endUserId: string, title: string) => install(ctx.emu, endUserId, title);

const poll = (mode: 'trigger' | 'manual', staticData = {}) => {
	const trigger = new AlbatoSolutionsTrigger();
	return trigger.poll.call(
		pollContext({
			nodeType: trigger,
			parameters: {
				authentication: 'partnerApi',
				endUserId: ' c-7 ',
				events: ['installationCreated', 'installationStarted'],
				solutionId: { __rl: true, mode: 'id', value: '' },
			},
			credentials: { albatoPartnerApi: partnerCredential(ctx.emu) },
			staticData,
			mode,
		}),
	);
};

describe('endUserId on trigger events (partner mode)', () => {
	it('every polled event carries the End User ID it was polled for (trimmed)', async () => {
		const staticData = {};
		expect(await poll('trigger', staticData)).toBeNull();
		await installFor('c-7', 'First');
		await installFor('c-7', 'Second');
		const events = (await poll('trigger', staticData))![0].map((item) => item.json);
		expect(events.length).toBeGreaterThan(1);
		expect(events.map((event) => [event.title, event.endUserId])).toEqual(
			events.map((event) => [event.title, 'c-7']),
		);
	});

	it('Fetch Test Event carries it too', async () => {
		await installFor('c-7', 'Sample');
		const [[item]] = (await poll('manual'))!;
		expect(item.json).toMatchObject({ title: 'Sample', endUserId: 'c-7' });
	});

	it('the End User ID description fits a trigger: no $json, a fixed ID or a variable', () => {
		const property = new AlbatoSolutionsTrigger().description.properties.find(
			(p) => p.name === 'endUserId',
		)!;
		expect(`${property.placeholder} ${property.description}`).not.toMatch(/\{\{\s*\$json/);
		expect(property.placeholder).toMatch(/\$vars\./);
		expect(property.description).toMatch(/endUserId/);
	});
});
