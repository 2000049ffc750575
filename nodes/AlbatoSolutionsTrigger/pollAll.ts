import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { pollEvents, withEndUser } from './poll';
import { RUN_EVENTS } from './runEvents';
import { chosenRunEvents, pollRunEvents } from './runPoll';

/**
 * The trigger's poll: installation events (poll.ts) and run events (runPoll.ts), each with its own
 * baseline. The run baseline is stored only after the installation part succeeded too: a poll that
 * fails anywhere emits nothing and changes nothing, so the next one reports what this one would have.
 */
export async function pollAll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const raw = ctx.getNodeParameter('events', []) as unknown;
	const chosen = (Array.isArray(raw) ? raw : [raw]).map(String);
	const runWatch = chosenRunEvents(ctx);
	const others = chosen.filter((event) => !(RUN_EVENTS as readonly string[]).includes(event));
	const runs = runWatch.size > 0 ? await pollRunEvents(ctx, runWatch) : undefined;
	const installations = others.length > 0 || runWatch.size === 0 ? await pollEvents(ctx) : null;
	runs?.commit();
	const items = [...(installations?.[0] ?? []), ...ctx.helpers.returnJsonArray(runs?.items ?? [])];
	return withEndUser(ctx, items.length > 0 ? [items] : null);
}
