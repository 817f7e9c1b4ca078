// The HTTP side of pagination: query parameters and envelope schema for every list endpoint, so the
// rules of docs/decisions.md (page >= 0, 1 <= size <= 100, defaults 0 and 20, a page past the end is
// an empty 200) live in one place. Services build the envelope with src/shared/pagination.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ValidationError } from '../shared/errors.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export const PageQuery = {
  page: Type.Integer({ minimum: 0, maximum: 9_000_000_000_000, default: 0, description: 'Zero-based page index' }),
  size: Type.Integer({
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
    description: `Items per page, at most ${MAX_PAGE_SIZE}`,
  }),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description:
        'Keyset pagination: the `nextCursor` of the previous page, passed back unchanged with the same filters. Pages read by cursor never repeat or skip an item when items are added or removed meanwhile. Replaces `page` (sending both is a 422).',
    }),
  ),
};

/**
 * A list's `updatedSince` filter. A convenience, not an exact log: `updatedAt` is stamped when the
 * change is made, not when it commits (docs/decisions.md, "Delta sync").
 */
export function UpdatedSince(items: string) {
  return Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        `Only ${items} changed at or after this time (their \`updatedAt\`), then ordered by (updatedAt, id) ascending with a \`resumeCursor\` to continue from. ` +
        'A convenience, not an exact log: `updatedAt` is stamped when a change is made, not when it commits, so under concurrent writes a change that commits ' +
        'late can sort behind a `resumeCursor` already answered and be missed. For an exact sync follow the event feed (`GET /public/v1/events`), whose order is ' +
        'commit-safe, and fetch the resources its events name.',
    }),
  );
}

export const PaginationSchema = Type.Object({
  page: Type.Integer({ description: 'Current zero-based page index' }),
  size: Type.Integer({ description: 'Items requested per page' }),
  totalElements: Type.Integer({ description: 'Total matching records' }),
  totalPages: Type.Integer({ description: 'Pages at this size' }),
  nextCursor: Type.Union([Type.String(), Type.Null()], {
    description: 'Pass as `cursor` to get the next page; null on the last page',
  }),
  resumeCursor: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        'Sync orders only (with `updatedSince`, and the event feed): the position after the last item answered, also on the last page. Keep it and pass it as `cursor` later to get only what changed since.',
    }),
  ),
});

/**
 * `cursor` takes the place of `page`: both in one request is refused (422) rather than one of them
 * silently ignored. Checked before validation, while the query still holds only what was sent, and
 * only on the lists: the routes whose query declares both (every list spreads PageQuery); other
 * routes never run it.
 */
export function registerPagination(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const properties = (route.schema?.querystring as { properties?: Record<string, unknown> } | undefined)?.properties;
    if (!properties || !('cursor' in properties) || !('page' in properties)) return;
    route.preValidation = [refuseCursorWithPage, ...[route.preValidation ?? []].flat()];
  });
}

async function refuseCursorWithPage(request: FastifyRequest): Promise<void> {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query === 'object' && 'cursor' in query && 'page' in query) {
    throw ValidationError.field('page', 'cannot be combined with cursor: a cursor already names its page');
  }
}

export function Paginated<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: PaginationSchema });
}
