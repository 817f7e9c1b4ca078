import { Type, type Static } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { FEED_EVENT_TYPES } from './service.ts';

/** An event as the feed answers it: the same body a webhook delivery POSTs. */
export const FeedEvent = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The event id: the same as the `webhook-id` of its deliveries' }),
    type: Type.String({ description: 'The event name' }),
    timestamp: Type.String({ format: 'date-time', description: 'When the change happened' }),
    companyId: Type.String({ format: 'uuid' }),
    data: Type.Object({}, { additionalProperties: true, description: 'As in the webhook payload of this event type' }),
  },
  { $id: 'FeedEvent', description: 'A recorded event, shaped like the body of its webhook delivery' },
);

export const EventFeedQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(
      Type.Array(Type.Enum(FEED_EVENT_TYPES), {
        description: 'Only these event types (repeat the parameter for several); default: every type the key may read',
      }),
    ),
    since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only events that happened at or after this time' }),
    ),
  },
  { additionalProperties: false },
);
export type EventFeedQuery = Static<typeof EventFeedQuery>;
