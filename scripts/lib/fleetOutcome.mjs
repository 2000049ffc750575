// What a fleet job came to: the failed items and whose they were, the 401s by token kind, and the
// customers whose installation did not converge (fleetBench.mjs, fleetJobs.mjs).
import { SPLIT } from './fleetOptions.mjs';

/** The customer id behind item `index` of `node`'s input, following pairedItem back to the Split Out. */
function customerOf(runData, node, index) {
	let current = node;
	let item = index;
	for (let hop = 0; hop < 10; hop++) {
		const source = runData[current]?.[0]?.source?.[0];
		if (!source) return undefined;
		const previous =
			runData[source.previousNode]?.[0]?.data?.main?.[source.previousNodeOutput ?? 0]?.[item];
		if (!previous) return undefined;
		if (source.previousNode === SPLIT) return previous.json.customerId;
		const paired = Array.isArray(previous.pairedItem)
			? previous.pairedItem[0]
			: previous.pairedItem;
		item = typeof paired === 'number' ? paired : (paired?.item ?? 0);
		current = source.previousNode;
	}
	return undefined;
}

/** The input item an output item came from (n8n's pairedItem: a number, an object or a list). */
function pairedIndex(item) {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return typeof paired === 'number' ? paired : (paired?.item ?? 0);
}

/**
 * Adds one execution's failed items to `acc` ({count, customers}): the items on the error outputs
 * of the Albato nodes, or every item of a node that failed as a whole.
 */
export function failedItems(execution, runData, acc) {
	if (!runData) {
		acc.count += 1;
		return acc;
	}
	for (const [name, tasks] of Object.entries(runData)) {
		const task = tasks?.[0];
		if (!task || name === SPLIT || !runData[SPLIT]) continue;
		const isAlbato = task.source?.length && name !== 'One batch';
		if (!isAlbato) continue;
		if (task.error && !task.data) {
			acc.count += runData[SPLIT][0].data.main[0].length;
			continue;
		}
		const errors = task.data?.main?.[1] ?? [];
		acc.count += errors.length;
		for (const error of errors) {
			const id = customerOf(runData, name, pairedIndex(error));
			if (id) acc.customers.add(id);
		}
	}
	if (execution.status !== 'success' && !runData[SPLIT]) acc.count += 1;
	return acc;
}

/**
 * The 401 answers and calls by token kind (master: the partner calls; endUser: the others) and
 * the form each went in, from the summary's "<kind> <form> <status>" counts. With Auto, a form found
 * out costs one 401 per token kind per worker process (every worker finds out for itself).
 */
export function authFigures(byAuth) {
	const out = { unauthorizedByTokenKind: { master: 0, endUser: 0 }, callsByTokenKindAndForm: {} };
	for (const [key, calls] of Object.entries(byAuth)) {
		const [kind, form, status] = key.split(' ');
		if (status === '401')
			out.unauthorizedByTokenKind[kind] = (out.unauthorizedByTokenKind[kind] ?? 0) + calls;
		const byForm = (out.callsByTokenKindAndForm[kind] ??= {});
		byForm[form] = (byForm[form] ?? 0) + calls;
	}
	return out;
}

/**
 * Per customer: one active installation titled `Leads of <id>` whose subject is `subject`.
 * `status`: the emulator's fleet/status answer (customer id → [id, title, status, subject][]).
 */
export function convergence(status, customerIds, subject) {
	let notConverged = 0;
	let duplicateInstallations = 0;
	const notConvergedIds = [];
	for (const id of customerIds) {
		const own = (status[id] ?? []).filter(([, title]) => title === `Leads of ${id}`);
		const active = own.filter(([, , state]) => Number(state) === 1);
		if (own.length > 1) duplicateInstallations += own.length - 1;
		if (active.length !== 1 || active[0][3] !== subject) {
			notConverged++;
			if (notConvergedIds.length < 10) notConvergedIds.push(id);
		}
	}
	return { notConverged, duplicateInstallations, notConvergedIds };
}
