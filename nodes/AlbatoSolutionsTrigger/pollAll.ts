import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { NoSampleError } from './noSample';
import { pollEvents, withEndUser } from './poll';
import { RUN_EVENTS } from './runEvents';
import { chosenRunEvents, pollRunEvents } from './runPoll';

/**
 * The trigger's poll: installation events (poll.ts) and run events (runPoll.ts), each with its own
 * baseline. The run baseline is stored only after the installation part succeeded too: a poll that
 * fails anywhere emits nothing and changes nothing, so the next one reports what this one would have.
 * "Fetch Test Event" fails only when no chosen kind of event has a sample.
 */
export async function pollAll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
	const runWatch = chosenRunEvents(ctx);
	const others = chosen.filter((event) => !(RUN_EVENTS as readonly string[]).includes(event));
	const missing: NoSampleError[] = [];
	const part = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
		try {
			return await read();
		} catch (error) {
			if (!(error instanceof NoSampleError)) throw error as Error;
			missing.push(error);
			return undefined;
		}
	};
	const runs = runWatch.size > 0 ? await part(() => pollRunEvents(ctx, runWatch)) : undefined;
	const installations =
		others.length > 0 || runWatch.size === 0 ? await part(() => pollEvents(ctx)) : null;
	runs?.commit();
	const items = [...(installations?.[0] ?? []), ...ctx.helpers.returnJsonArray(runs?.items ?? [])];
	if (items.length === 0 && missing.length > 0) throw noSampleAtAll(missing);
	return withEndUser(ctx, items.length > 0 ? [items] : null);
}

/** One kind without a sample: its own error; both: one error naming both. */
function noSampleAtAll(missing: NoSampleError[]): NoSampleError {
	if (missing.length === 1) return missing[0];
	return new NoSampleError(
		missing[0].node,
		missing
			.map(({ message }, index) =>
				index === 0 ? message : message[0].toLowerCase() + message.slice(1),
			)
			.join('; '),
		{ description: missing.map((error) => error.description).join(' ') },
	);
}
