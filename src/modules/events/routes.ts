import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { EventFeedQuery, FeedEvent } from './schemas.ts';
import { listEvents } from './service.ts';
import { READ_SCOPE_BY_RESOURCE } from '../webhooks/events.ts';

const scopeList = Object.entries(READ_SCOPE_BY_RESOURCE)
  .map(([resource, scope]) => `\`${resource}.*\` with \`${scope}\``)
  .join(', ');

export async function eventRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/events',
    {
      config: { auth: { scope: null } },
      schema: {
        tags: ['Events'],
        operationId: 'listEvents',
        summary: 'Read the event feed',
        description: `The company's events (the same ones webhooks deliver, deletions included), oldest first, kept at least 30 days. Read it by \`cursor\`: \`nextCursor\` leads to the next page (null once caught up) and \`resumeCursor\` is where to continue later, also on the last page. The order is the order in which changes committed: a position answered once never gets an event behind it later, so a reader that resumes from its last \`resumeCursor\` misses nothing and sees nothing twice. A key reads the events of the resource types it may read: ${scopeList} (403 without any of them, or for a \`type\` it may not read).`,
        querystring: EventFeedQuery,
        response: { 200: Paginated(Type.Ref('FeedEvent')), ...errorResponses([403, 422]) },
      },
    },
    async (request) => listEvents(app.ctx, principalOf(request), request.query),
  );
}

export const eventSchemas = [FeedEvent];
