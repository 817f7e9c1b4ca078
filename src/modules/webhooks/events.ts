import { JOB_LISTING_EVENTS } from '../job-listings/service.ts';

// The event catalogue (decisions.md): the names a subscription may list. `ping` is sent only by
// POST /webhooks/{id}/test, to that one subscription.
export const WEBHOOK_EVENT_TYPES = [
  'application.created',
  'application.status_changed',
  'candidate.created',
  ...JOB_LISTING_EVENTS,
  'ping',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}
