/** Endpoints 5–8: start, pause, list, detail. */
import { nowIso, ownInstallation, type Handler, type HandlerContext } from './context';
import { recordsOf } from '../indexedMap';
import { assertNotBlocked } from './billing';
import { wrapInstallation } from '../render';
import { renderInstallation } from './views';

/**
 * `expand` as Yii reads it: comma-separated names, each trimmed. The query parser has
 * already turned `+` into a space, so `,+bundles.steps` names "bundles.steps", while
 * `%2Bbundles.steps` names "+bundles.steps", which is unknown and expands nothing.
 */
function expandOf(ctx: HandlerContext): Set<string> {
	const raw = ctx.query.expand;
	if (typeof raw !== 'string') return new Set();
	return new Set(
		raw
			.split(',')
			.map((name) => name.trim())
			.filter(Boolean),
	);
}

export const listInstallations: Handler = (ctx) => {
	const lag = ctx.state.listLag;
	const own = recordsOf(ctx.state.installations, ctx.user)
		.filter((i) => lag.listed(i.id))
		.sort((a, b) => a.id - b.id);
	return {
		data: own.map((inst) =>
			ctx.variants.listWithoutStatus
				? { id: inst.id, title: inst.title }
				: renderInstallation(ctx, inst, new Set()),
		),
	};
};

export const getInstallation: Handler = (ctx) => ({
	data: wrapInstallation(
		renderInstallation(
			ctx,
			ownInstallation(ctx, ctx.id),
			expandOf(ctx),
			!ctx.variants.detailWithoutStatus,
		),
		ctx.variants,
	),
});

const setStatus =
	(status: 0 | 1): Handler =>
	(ctx) => {
		const inst = ownInstallation(ctx, ctx.id);
		if (status === 1) assertNotBlocked(ctx.state, inst.userId);
		if (inst.status !== status) {
			inst.status = status;
			inst.dateUpdated = nowIso();
			if (status === 1)
				ctx.state.activeCopies.started(recordsOf(ctx.state.installations, inst.userId), inst);
		}
		const rendered = renderInstallation(
			ctx,
			inst,
			new Set(),
			!ctx.variants.statusCallWithoutStatus,
		);
		return { data: wrapInstallation(rendered, ctx.variants) };
	};

/** PLAY: status 1 (already active: no change, still 200). */
export const play = setStatus(1);
/** PAUSE: status 0 (already paused: no change, still 200). */
export const pause = setStatus(0);
