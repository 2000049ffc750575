/** How the /wl handlers name an end user: the partner's own id, from the body, keyed by partner. */
import { ApiError } from '../errors';
import type { EndUserRecord } from '../types';
import { isPlainObject, type HandlerContext } from './context';

/** The key of an end user in `state.endUsers`: the partner's name and its own id of the user. */
export const endUserKey = (partner: string, id: string) => `${partner}\n${id}`;

/** The body's `id` (string or number), or a 400 listing it first among the other fields' errors. */
export function bodyId(
	ctx: HandlerContext,
	extra: Array<{ field: string; message: string }> = [],
): string {
	const body = isPlainObject(ctx.body) ? ctx.body : {};
	const id = body.id;
	const text =
		typeof id === 'number' && Number.isFinite(id)
			? String(id)
			: typeof id === 'string' && id.trim() !== ''
				? id.trim()
				: undefined;
	const errors = [...extra];
	if (text === undefined)
		errors.unshift({ field: 'id', message: 'id is required (your own id of the user)' });
	if (errors.length) throw new ApiError(400, errors);
	return text!;
}

/** The calling partner's end user with this id, or a 404. */
export function namedUser(ctx: HandlerContext, id: string): EndUserRecord {
	const user = ctx.state.endUsers.get(endUserKey(ctx.partner.settings.name, id));
	if (!user) throw new ApiError(404, `End user with id "${id}" not found`);
	return user;
}
