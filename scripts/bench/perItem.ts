/**
 * The per-item figures: ms per item for each client (ideal, helper, node) at each round trip and
 * number in flight, interleaved (each repeat runs every client at every setting once), with the CPU
 * per call measured first in each repeat; then the medians.
 */
import { control, helperGets, idealGets, type Service } from './http';
import { nodeGets } from './node';
import { IN_FLIGHT, median, round, RTTS } from './options';
import { cpuPerCall } from './usage';

export type Figures = Record<string, number>;
/** Every repeat's value: by round trip, client and setting. */
export type Runs = Record<string, Record<string, Record<string, number[]>>>;

export interface Sizes {
	repeat: number;
	items: number;
	serialItems: number;
	cpuCalls: number;
}

type Recorder = (rtt: number, client: string, setting: string, value: number) => void;

/** The clients, in the order each setting runs them. */
const CLIENTS = [
	['ideal', idealGets],
	['helper', helperGets],
	['node', nodeGets],
] as const;

export async function perItem(service: Service, sizes: Sizes, began: number) {
	const runs: Runs = {};
	const record: Recorder = (rtt, client, setting, value) => {
		((runs[rtt] ??= {})[client] ??= {})[setting] ??= [];
		runs[rtt][client][setting].push(value);
	};
	const cpu = { helper: [] as number[], node: [] as number[] };
	for (let r = 0; r < sizes.repeat; r++) {
		// CPU first, while the process's heap is small; helper and node alternate.
		cpu.helper.push(await cpuPerCall(service, sizes.cpuCalls, 'helper'));
		cpu.node.push(await cpuPerCall(service, sizes.cpuCalls, 'node'));
		await control(service, 'DELETE', '/requests');
		for (const rtt of RTTS) await perItemAt(service, rtt, sizes, record);
		console.log(
			`repeat ${r + 1}/${sizes.repeat} done (${Math.round((Date.now() - began) / 1000)} s)`,
		);
	}
	const perItemMs: Record<string, Record<string, Figures>> = {};
	for (const rtt of RTTS) {
		perItemMs[rtt] = {};
		for (const [client, settings] of Object.entries(runs[rtt])) {
			perItemMs[rtt][client] = Object.fromEntries(
				Object.entries(settings).map(([setting, values]) => [setting, round(median(values))]),
			);
		}
	}
	const cpuMsPerCall = { helper: round(median(cpu.helper), 3), node: round(median(cpu.node), 3) };
	return { runs, perItemMs, cpuMsPerCall };
}

/** One repeat at one round trip: every client at every number in flight, then the node's default. */
async function perItemAt(service: Service, rtt: number, sizes: Sizes, record: Recorder) {
	const baseUrl = service.proxies[rtt];
	for (const inFlight of IN_FLIGHT) {
		const n = inFlight === 1 ? sizes.serialItems : sizes.items;
		for (const [client, gets] of CLIENTS)
			record(
				rtt,
				client,
				String(inFlight),
				((await gets(baseUrl, service.token, n, inFlight)) * 1000) / n,
			);
	}
	record(
		rtt,
		'node',
		'default',
		((await nodeGets(baseUrl, service.token, sizes.items)) * 1000) / sizes.items,
	);
	await control(service, 'DELETE', '/requests'); // the emulator's log would grow all run long
}
