/**
 * The emulator's state as one model: the spec's records (installations, bundles, bundle data,
 * credentials, end users) and every part the emulator keeps beyond them (list lag, connections and
 * clock, run history, end users' plans and billing, active copies), created together and reset
 * together. Handlers and control calls reach every part through the state they are given.
 */
import { ActiveCopies } from './activeCopies';
import { ConnectionsStore } from './connections';
import { BillingStore, LifecycleStore } from './endUserAccounts';
import {
	FIRST_END_USER,
	FIXTURE_IDS,
	latestPublished,
	TEMPLATES,
	USER_1,
	USER_2,
	VALID_CREDENTIAL_DATA,
} from './fixtures';
import { OwnerIndexedMap } from './indexedMap';
import { ListLagStore } from './listLag';
import { RunHistory } from './runHistory';
import { streamsOf } from './runStream';
import type { BundleStepRecord, EmulatorState, FieldRecord, InstallationRecord } from './types';

const FIXTURE_INSTALLATIONS: {
	id: number;
	userId: string;
	solutionId: number;
	title: string;
	status: 0 | 1;
	bundles: { id: number; templateId: number; stepIds: number[] }[];
}[] = [
	{
		id: 5001,
		userId: USER_1,
		solutionId: 101,
		title: 'Leads for ACME',
		status: 1,
		bundles: [
			{ id: 7001, templateId: 1011, stepIds: [9001, 9002] },
			{ id: 7002, templateId: 1012, stepIds: [9003, 9004] },
		],
	},
	{
		id: 5002,
		userId: USER_1,
		solutionId: 101,
		title: 'Leads for Globex',
		status: 0,
		bundles: [{ id: 7003, templateId: 1011, stepIds: [9005, 9006] }],
	},
	{
		id: 5003,
		userId: USER_2,
		solutionId: 102,
		title: 'Orders of user 2',
		status: 0,
		bundles: [{ id: 7004, templateId: 1021, stepIds: [9007, 9008] }],
	},
];

const copyFields = (fields: FieldRecord[]): FieldRecord[] =>
	fields.map((f) => ({ ...f, value: structuredClone(f.value) }));

/** Creates the bundle (and its step records) for one template; shared by fixtures and install. */
export function addBundle(
	state: EmulatorState,
	installationId: number,
	templateId: number,
	bundleId: number,
	stepIds: number[],
): void {
	const template = TEMPLATES.find((t) => t.id === templateId)!;
	state.bundles.set(bundleId, {
		id: bundleId,
		installationId,
		templateId,
		title: template.bundle.title,
		stepIds,
	});
	template.bundle.steps.forEach((step, i) => {
		const record: BundleStepRecord = {
			id: stepIds[i],
			bundleId,
			title: step.title,
			fields: copyFields(step.fields),
		};
		state.bundleData.set(record.id, record);
	});
}

/** A new state, with the fixtures loaded. */
export function createState(): EmulatorState {
	const bundles = new Map();
	const state: EmulatorState = {
		installations: new OwnerIndexedMap(),
		bundles,
		bundleData: new Map(),
		credentials: new OwnerIndexedMap(),
		endUsers: new Map(),
		permanentTokens: new Map(),
		nextIds: { installation: 0, bundle: 0, step: 0, credential: 0, endUser: 0 },
		listLag: new ListLagStore(),
		connections: new ConnectionsStore(),
		runHistory: new RunHistory(bundles),
		lifecycle: new LifecycleStore(),
		billing: new BillingStore(),
		activeCopies: new ActiveCopies(),
	};
	resetState(state);
	return state;
}

/** Every part back to the fixtures, in place (so references held by tests stay valid). */
export function resetState(state: EmulatorState): void {
	loadFixtures(state);
	state.listLag.clear();
	state.connections.clear();
	state.lifecycle.reset();
	state.billing.reset();
	state.activeCopies.clear();
	streamsOf(state).clear();
	state.runHistory.reset();
}

function loadFixtures(state: EmulatorState): void {
	state.installations.clear();
	state.bundles.clear();
	state.bundleData.clear();
	state.credentials.clear();
	state.endUsers.clear();
	state.permanentTokens.clear();
	state.nextIds = {
		endUser: FIRST_END_USER,
		installation: FIXTURE_IDS.nextInstallation,
		bundle: FIXTURE_IDS.nextBundle,
		step: FIXTURE_IDS.nextStep,
		credential: FIXTURE_IDS.nextCredential,
	};
	for (const fx of FIXTURE_INSTALLATIONS) {
		const record: InstallationRecord = {
			id: fx.id,
			userId: fx.userId,
			solutionId: fx.solutionId,
			solutionVersion: latestPublished(fx.solutionId)!.version,
			title: fx.title,
			status: fx.status,
			settings: {},
			credentialData: { ...VALID_CREDENTIAL_DATA[fx.solutionId] },
			bundleIds: fx.bundles.map((b) => b.id),
			dateCreated: '2024-04-10T08:00:00Z',
			dateUpdated: '2024-04-11T08:00:00Z',
		};
		state.installations.set(record.id, record);
		for (const b of fx.bundles) addBundle(state, fx.id, b.templateId, b.id, b.stepIds);
	}
}
