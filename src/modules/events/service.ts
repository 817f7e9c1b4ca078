// The event feed (docs/decisions.md, "Event feed"): the company's recorded events in the order their
// transactions committed safely (tx_id, seq), by cursor, filtered by type and time. A caller reads
// the events of the resource types it may read: the read scope of each type decides, no new scope.
import { listFeedEvents } from '../../infra/outbox/repo.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { ForbiddenError } from '../../shared/errors.ts';
import { endPage, startPage, toPage, type Ordering, type Page, type PageRequest } from '../../shared/pagination.ts';
import { READ_SCOPE_BY_RESOURCE, readScopeOfEvent, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/events.ts';

/** Events the feed holds: every recorded one (ping is sent to one subscription, never recorded). */
export const FEED_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((type) => type !== 'ping') as Array<Exclude<WebhookEventType, 'ping'>>;
export type FeedEventType = (typeof FEED_EVENT_TYPES)[number];

/** The scope that lets a caller read events of a resource type (every feed event names one). */
export function readScopeOf(type: FeedEventType): string {
  return readScopeOfEvent(type)!;
}

const FEED_ORDER: Ordering = { name: 'feed', keys: ['xid8', 'bigint'], direction: 'asc', sync: true };

export interface FeedEventView {
  id: string;
  type: string;
  timestamp: string;
  companyId: string;
  data: unknown;
}

export interface FeedQuery extends PageRequest {
  type?: FeedEventType[] | undefined;
  since?: string | undefined;
}

export async function listEvents(
  ctx: ServiceContext,
  principal: { companyId: string; scopes: readonly string[] },
  query: FeedQuery,
): Promise<Page<FeedEventView>> {
  const readable = FEED_EVENT_TYPES.filter((type) => principal.scopes.includes(readScopeOf(type)));
  if (readable.length === 0) {
    const scopes = [...new Set(Object.values(READ_SCOPE_BY_RESOURCE))];
    throw new ForbiddenError(`Reading events needs one of the scopes ${scopes.join(', ')}`, [
      { field: 'scope', message: `requires one of ${scopes.join(', ')}` },
    ]);
  }
  const asked = query.type && query.type.length > 0 ? [...new Set(query.type)].sort() : undefined;
  if (asked) {
    const refused = asked.filter((type) => !readable.includes(type));
    if (refused.length > 0) {
      throw new ForbiddenError(`This key may not read ${refused.join(', ')} events`, [
        { field: 'type', message: `requires ${[...new Set(refused.map(readScopeOf))].join(', ')}` },
      ]);
    }
  }
  const filter = { types: asked ?? readable, since: query.since ? new Date(query.since) : undefined };
  const position = startPage(ctx.secrets, query, 'events', FEED_ORDER, { companyId: principal.companyId, ...filter });
  const { rows: fetched, total } = await listFeedEvents(ctx.db, principal.companyId, filter, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.txId, row.seq]);
  return toPage(
    rows.map((row) => ({ id: row.id, type: row.type, timestamp: row.occurredAt.toISOString(), companyId: row.companyId, data: row.data })),
    total,
    position,
    cursors,
  );
}
