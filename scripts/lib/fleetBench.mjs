// What `npm run bench:fleet` measures around one job: the executions in Postgres, their run data
// (read one execution at a time, never all at once), the emulator's request summary, and the peak
// RSS of every process (n8n's and the emulator's).

import { readFile, writeFile } from 'node:fs/promises';

import { HEADER_CREDENTIAL } from '../e2e/lib/setup.mjs';
import { waitFor } from '../e2e/lib/proc.mjs';
import { batchOf, batchPath, fanoutPath, JOBS, SEED_CHUNK, STRICT_AUTH } from './fleetOptions.mjs';
import { megabytes, roundSeconds } from './fleetReport.mjs';
import { authFigures, failedItems } from './fleetOutcome.mjs';

/** Peak RSS (VmHWM) of a process, in MB; `reset` first clears it (clear_refs 5). */
export async function peakRss(pid, { reset = false } = {}) {
	try {
		if (reset) {
			await writeFile(`/proc/${pid}/clear_refs`, '5');
			return undefined;
		}
		const status = await readFile(`/proc/${pid}/status`, 'utf8');
		const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
		return Math.round(kb / 1024);
	} catch {
		return undefined;
	}
}

/** Current RSS (VmRSS) of a process, in MB. */
export async function currentRss(pid) {
	try {
		const status = await readFile(`/proc/${pid}/status`, 'utf8');
		return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024);
	} catch {
		return undefined;
	}
}

export class Bench {
	constructor({ emulator, postgres, n8n, roles, webhookBase, partner, flatted, logDir }) {
		Object.assign(this, { emulator, postgres, n8n, roles, webhookBase, partner, flatted, logDir });
		/** Per size: the slowest seed (seconds) and the emulator's RSS after it (MB). */
		this.seeds = {};
	}

	processes() {
		return {
			main: this.n8n.server,
			...Object.fromEntries(this.roles.map((r) => [r.name, r.child])),
		};
	}

	async resetPeaks() {
		for (const child of Object.values(this.processes())) await peakRss(child.pid, { reset: true });
		await peakRss(this.emulator.child.pid, { reset: true });
	}

	async peaks() {
		const out = {};
		for (const [name, child] of Object.entries(this.processes()))
			out[name] = await peakRss(child.pid);
		return out;
	}

	/**
	 * The emulator back to its fixtures (what earlier seeds held is freed), counting calls in its
	 * summary only, in the `--strict-auth` reading.
	 */
	async resetEmulator() {
		await this.emulator.reset();
		await this.emulator.control('POST', '/requests/keep', { keep: false });
		if (STRICT_AUTH !== 'lenient')
			await this.emulator.control('POST', '/variants', { strictAuth: STRICT_AUTH });
	}

	async maxExecutionId() {
		const [[id]] = await this.postgres.psql('SELECT coalesce(max(id), 0) FROM execution_entity');
		return Number(id);
	}

	/** Executions after `afterId`: `{ id, workflowId, status, startedMs, stoppedMs }`. */
	async executionsAfter(afterId) {
		const rows = await this.postgres.psql(
			`SELECT id, "workflowId", status, extract(epoch from "startedAt") * 1000, extract(epoch from "stoppedAt") * 1000 FROM execution_entity WHERE id > ${Number(afterId)} ORDER BY id`,
		);
		return rows.map(([id, workflowId, status, started, stopped]) => ({
			id: Number(id),
			workflowId,
			status,
			startedMs: started ? Number(started) : undefined,
			stoppedMs: stopped ? Number(stopped) : undefined,
		}));
	}

	async post(webhookPath, body) {
		const response = await fetch(`${this.webhookBase}/webhook/${webhookPath}`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				[HEADER_CREDENTIAL.data.name]: HEADER_CREDENTIAL.data.value,
			},
			body: JSON.stringify(body),
		});
		if (!response.ok)
			throw new Error(
				`POST /webhook/${webhookPath}: ${response.status} ${(await response.text()).slice(0, 300)}`,
			);
	}

	/**
	 * Waits for `batches` finished executions of the job's batch workflow (and its fan-out, when
	 * `fanout`) after `afterId`; `onTick` runs every poll (the worker kill).
	 */
	async waitJob(job, afterId, { batches, fanout, timeoutMs, onTick, allowStuck = false }) {
		const done = (e) =>
			e.stoppedMs !== undefined && !['new', 'running', 'waiting'].includes(e.status);
		let last = '';
		let lastChange = Date.now();
		return waitFor(
			`${batches} executions of ${job}`,
			async () => {
				const all = await this.executionsAfter(afterId);
				const own = all.filter((e) => e.workflowId === JOBS[job].batchId);
				const parent = all.filter((e) => e.workflowId === JOBS[job].fanId);
				if (fanout && parent.some((e) => done(e) && e.status !== 'success'))
					throw Object.assign(
						new Error(`the fan-out execution ${parent[0].id} ended "${parent[0].status}"`),
						{ fatal: true },
					);
				await onTick?.(own);
				const state = own.map((e) => `${e.id}:${e.status}`).join(',');
				if (state !== last) {
					last = state;
					lastChange = Date.now();
				}
				const finished = own.filter(done);
				// A number, or a function answering one once executions may be stuck (a worker killed).
				const stuckAfter = typeof allowStuck === 'function' ? allowStuck() : allowStuck;
				if (
					stuckAfter &&
					finished.length + own.filter((e) => !done(e)).length >= batches &&
					Date.now() - lastChange > stuckAfter
				)
					return { own, parent, stuck: own.filter((e) => !done(e)) };
				return finished.length >= batches && (!fanout || parent.every(done))
					? { own, parent, stuck: [] }
					: undefined;
			},
			{ timeoutMs, intervalMs: 500 },
		);
	}

	/** The run data of one execution, decoded. */
	async runData(executionId) {
		const rows = await this.postgres.psql(
			`SELECT data FROM execution_data WHERE "executionId" = ${Number(executionId)}`,
		);
		if (!rows.length) return undefined;
		return this.flatted.parse(rows[0][0]).resultData?.runData;
	}

	async storedBytes(ids) {
		if (!ids.length) return 0;
		const [[bytes]] = await this.postgres.psql(
			`SELECT coalesce(sum(octet_length(data)), 0) FROM execution_data WHERE "executionId" IN (${ids.join(',')})`,
		);
		return Number(bytes);
	}

	async executionsPerWorker(ids) {
		const wanted = new Set(ids.map(String));
		const out = {};
		for (const role of this.roles.filter((r) => r.name.startsWith('worker'))) {
			const log = await readFile(role.logFile, 'utf8').catch(() => '');
			let count = 0;
			for (const m of log.matchAll(/Worker started execution (\d+)/g))
				if (wanted.has(m[1])) count++;
			out[role.name] = count;
		}
		return out;
	}

	/** The failed items of these executions and whose they were; `onRun` sees each one's run data. */
	async failedOf(executions, onRun) {
		const failed = { count: 0, customers: new Set() };
		for (const execution of executions) {
			const runData = await this.runData(execution.id);
			failedItems(execution, runData, failed);
			onRun?.(runData, execution);
		}
		return failed;
	}

	/**
	 * Runs one job over `customers` ([{customerId, …}]): as a fan-out (one POST to the fan-out
	 * webhook) or as one execution (one POST to the batch webhook). Returns its figures and the
	 * customers on error outputs. Each batch's run data is read, decoded, handed to `onRun` and
	 * dropped (200 batches of 500 customers would not fit in this process at once).
	 */
	async runJob(
		job,
		customers,
		{ single = false, timeoutMs, onTick, extra = {}, allowStuck, onRun } = {},
	) {
		await this.emulator.control('DELETE', '/requests');
		await this.resetPeaks();
		const afterId = await this.maxExecutionId();
		const batchSize = batchOf(job, customers.length);
		const batches = single ? 1 : Math.ceil(customers.length / batchSize);
		const began = Date.now();
		await this.post(single ? batchPath(job) : fanoutPath(job), { customers, batchSize, ...extra });
		const { own, parent, stuck } = await this.waitJob(job, afterId, {
			batches,
			fanout: !single,
			// 200 ms a customer (20,000 s at 100,000), at least 5 min: a ceiling, not a target.
			timeoutMs: timeoutMs ?? Math.max(300_000, customers.length * 200),
			onTick,
			allowStuck,
		});
		let stoppedMs = 0;
		for (const e of own) if (e.stoppedMs > stoppedMs) stoppedMs = e.stoppedMs;
		const seconds = roundSeconds(stoppedMs - began);
		const summary = await this.emulator.control('GET', '/requests/summary');
		const rss = await this.peaks();
		const emulatorPeakRssMB = await peakRss(this.emulator.child.pid);
		const ids = [...own, ...parent].map((e) => e.id);
		const failed = await this.failedOf(
			own.filter((e) => !stuck.includes(e)),
			onRun,
		);
		const workerRss = Object.entries(rss)
			.filter(([name]) => name.startsWith('worker'))
			.map(([, mb]) => mb ?? 0);
		return {
			figures: {
				seconds,
				failedItems: failed.count,
				maxTokenCallsPerCustomerPerWorker: summary.tokenCalls.maxPerUser,
				tokenCalls: summary.tokenCalls.total,
				unauthorized: summary.unauthorized ?? summary.byStatus['401'] ?? 0,
				auth: authFigures(summary.byAuth ?? {}),
				peakWorkerRssMB: Math.max(...workerRss),
				rssMB: rss,
				emulatorPeakRssMB,
				calls: {
					total: summary.total,
					rateLimited: summary.rateLimited,
					byKind: summary.byKind,
					byStatus: summary.byStatus,
				},
				storedMB: megabytes(await this.storedBytes(ids)),
				executions: ids.length,
				executionsPerWorker: await this.executionsPerWorker(ids),
				...(stuck.length ? { executionsLeftRunning: stuck.length } : {}),
			},
			failedCustomers: failed.customers,
		};
	}

	/** Seeds `count` customers by SEED_CHUNK (time and RSS); `runs`: `{runsPerDay}` for a stream. */
	async seed(count, idPrefix, runs = { runsPerBundle: 1 }) {
		const began = Date.now();
		const customers = [];
		for (let start = 0; start < count; start += SEED_CHUNK) {
			const chunk = await this.emulator.control('POST', '/fleet', {
				count: Math.min(SEED_CHUNK, count - start),
				start,
				idPrefix,
				...runs,
			});
			for (const customer of chunk.customers) customers.push(customer);
		}
		const seconds = roundSeconds(Date.now() - began);
		const rssMB = await currentRss(this.emulator.child.pid);
		const known = this.seeds[count];
		if (!known || seconds > known.seconds) this.seeds[count] = { seconds, emulatorRssMB: rssMB };
		return customers;
	}

	/** Per customer of a seed: its installations as `[id, title, status, subject]`. */
	async fleetStatus(idPrefix) {
		const { customers } = await this.emulator.control('POST', '/fleet/status', {
			idPrefix,
			field: 'subject',
		});
		return customers;
	}
}

export async function mapLimited(list, limit, fn) {
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, list.length) }, async () => {
			while (next < list.length) {
				const i = next++;
				await fn(list[i], i);
			}
		}),
	);
}
