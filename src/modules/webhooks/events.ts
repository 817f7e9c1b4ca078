// The webhook event catalogue (docs/decisions.md, "Webhook events"): the names a subscription may
// list, derived from the events each module declares in its own events.ts, plus `ping`, sent only
// by POST /webhooks/{id}/test to that one subscription. The OpenAPI `webhooks` section and
// docs/webhooks.md are generated from the same entries.
import type { DomainEventType } from '../../infra/outbox/record-event.ts';
import type { Scope } from '../api-keys/scopes.ts';
import { APPLICATION_EVENT_PAYLOADS, APPLICATION_EVENTS } from '../applications/events.ts';
import { CANDIDATE_EVENT_PAYLOADS, CANDIDATE_EVENTS } from '../candidates/events.ts';
import { DOCUMENT_EVENT_PAYLOADS, DOCUMENT_EVENTS } from '../documents/events.ts';
import { JOB_LISTING_EVENT_PAYLOADS, JOB_LISTING_EVENTS } from '../job-listings/events.ts';
import { NOTE_EVENT_PAYLOADS, NOTE_EVENTS } from '../notes/events.ts';

export const WEBHOOK_EVENT_TYPES = [...APPLICATION_EVENTS, ...CANDIDATE_EVENTS, ...DOCUMENT_EVENTS, ...JOB_LISTING_EVENTS, ...NOTE_EVENTS, 'ping'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

// Every event a service can record is in the catalogue (a compile error names any that is not).
type Uncatalogued = Exclude<DomainEventType, WebhookEventType>;
const everyEventCatalogued: [Uncatalogued] extends [never] ? true : Uncatalogued = true;
void everyEventCatalogued;

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * The scope that reads a resource type's data (the event type's prefix): an event carries what that
 * scope reads, so reading the event (feed, webhook, delivery log) needs it too.
 */
export const READ_SCOPE_BY_RESOURCE: Record<string, Scope> = {
  job_listing: 'jobs:read',
  application: 'applications:read',
  candidate: 'candidates:read',
  // A note is on a candidate: read with the candidate's scope.
  note: 'candidates:read',
};

/** The scope an event's data needs; null for one that carries no resource's data (`ping`). */
export function readScopeOfEvent(type: string): Scope | null {
  return READ_SCOPE_BY_RESOURCE[type.split('.')[0]] ?? null;
}

/** When each event is sent and what its `data` holds (words and JSON Schema), in catalogue order. */
export const WEBHOOK_EVENT_PAYLOADS: Record<WebhookEventType, { sentWhen: string; dataNote: string; data: object }> = {
  ...APPLICATION_EVENT_PAYLOADS,
  ...CANDIDATE_EVENT_PAYLOADS,
  ...DOCUMENT_EVENT_PAYLOADS,
  ...JOB_LISTING_EVENT_PAYLOADS,
  ...NOTE_EVENT_PAYLOADS,
  ping: {
    sentWhen: '`POST /webhooks/{id}/test` is called (sent to that subscription only)',
    dataNote: '`{ subscriptionId }`',
    data: { type: 'object', required: ['subscriptionId'], properties: { subscriptionId: { type: 'string', format: 'uuid' } } },
  },
};

/** The catalogue table of docs/webhooks.md ("Event catalogue"); a test keeps the two the same. */
export function webhookCatalogueMarkdown(): string {
  const rows = WEBHOOK_EVENT_TYPES.map((type) => {
    const { sentWhen, dataNote } = WEBHOOK_EVENT_PAYLOADS[type];
    return `| \`${type}\` | ${sentWhen} | ${dataNote} |`;
  });
  return ['| Event | Sent when | `data` |', '|---|---|---|', ...rows].join('\n');
}
