import { Type } from 'typebox';
import { WEBHOOK_EVENT_PAYLOADS, WEBHOOK_EVENT_TYPES } from './events.ts';

export const WebhookEventName = Type.Enum([...WEBHOOK_EVENT_TYPES], {
  description: 'An event name from the catalogue',
});

const Url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Where events are POSTed. Must be https, and its host must resolve to a public internet address: private, loopback, ' +
    'link-local and reserved addresses are refused here and again when connecting.',
});

const Events = Type.Array(WebhookEventName, {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  description: 'Event names to receive (duplicates are ignored)',
});

const subscriptionFields = {
  id: Type.String({ format: 'uuid' }),
  companyId: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean({ description: 'Only active subscriptions receive events' }),
  disabledReason: Type.Union([Type.Literal('ENDPOINT_GONE'), Type.Literal('FAILING'), Type.Null()], {
    description:
      'Why the service switched the subscription off: ENDPOINT_GONE (the endpoint answered 410 Gone) or FAILING ' +
      '(every attempt failed for 5 days). Null otherwise. Setting active to true again clears it.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const WebhookSubscription = Type.Object(subscriptionFields, {
  $id: 'WebhookSubscription',
  description: 'A webhook subscription. The signing secret is never shown here.',
});

export const WebhookSubscriptionWithSecret = Type.Object(
  {
    ...subscriptionFields,
    secret: Type.String({
      description:
        'The signing secret (whsec_...), shown only in this response: verify deliveries with it (Standard Webhooks).',
    }),
  },
  { $id: 'WebhookSubscriptionWithSecret' },
);

export const WebhookDeliveryAttempt = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    attemptedAt: Type.String({ format: 'date-time' }),
    statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status answered; null when no answer came' }),
    durationMs: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()], {
      description:
        'Why the attempt failed without an answer (BLOCKED_ADDRESS, DNS_FAILURE, CONNECTION_REFUSED, TIMEOUT, TLS_ERROR, ' +
        'CONNECTION_RESET, NETWORK_ERROR) or REDIRECT_NOT_FOLLOWED for a 3xx; null otherwise',
    }),
    responseBody: Type.Union([Type.String(), Type.Null()], {
      description:
        "The first 20 KB of the answer; null without one, without the read scope of the event's resource, or when the event's candidate was erased",
    }),
  },
  { $id: 'WebhookDeliveryAttempt' },
);

export const WebhookDelivery = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    subscriptionId: Type.String({ format: 'uuid' }),
    eventId: Type.String({ format: 'uuid', description: 'Sent as webhook-id: the same on every attempt' }),
    eventType: Type.String(),
    status: Type.Union([Type.Literal('PENDING'), Type.Literal('DELIVERED'), Type.Literal('FAILED')], {
      description: 'PENDING: waiting for its first attempt or a retry; DELIVERED: a 2xx came; FAILED: given up',
    }),
    attemptCount: Type.Integer(),
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    payload: Type.Union([Type.String(), Type.Null()], {
      description: "The exact JSON body sent and signed; null when the caller lacks the read scope of the event's resource",
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    attempts: Type.Array(Type.Ref('WebhookDeliveryAttempt'), { description: 'Every attempt, oldest first' }),
  },
  { $id: 'WebhookDelivery' },
);

export const WebhookTestResult = Type.Object(
  {
    status: Type.Integer({ description: 'HTTP status returned by the subscriber endpoint' }),
    body: Type.String({ description: 'The body it returned (the first 20 KB)' }),
  },
  { $id: 'WebhookTestResult' },
);

export const CreateWebhookBody = Type.Object({ url: Url, events: Events }, { additionalProperties: false });

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    active: Type.Optional(
      Type.Boolean({ description: 'false pauses delivery; true resumes it (and retries what is still pending)' }),
    ),
  },
  { additionalProperties: false },
);

export const webhookSchemas = [
  WebhookSubscription,
  WebhookSubscriptionWithSecret,
  WebhookDeliveryAttempt,
  WebhookDelivery,
  WebhookTestResult,
];

const componentRefs = (schema: unknown): unknown =>
  Array.isArray(schema)
    ? schema.map(componentRefs)
    : schema && typeof schema === 'object'
      ? Object.fromEntries(
          Object.entries(schema).map(([key, value]) =>
            key === '$ref' && typeof value === 'string' ? [key, `#/components/schemas/${value}`] : [key, componentRefs(value)],
          ),
        )
      : schema;

/** The component name of an event type's schema: application.status_changed -> ApplicationStatusChangedEvent. */
export function webhookEventSchemaName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Event`;
}

/** The JSON Schema of one event type's body: the envelope around the event's data. */
function eventSchema(type: (typeof WEBHOOK_EVENT_TYPES)[number]): Record<string, unknown> {
  const { sentWhen, dataNote, data } = WEBHOOK_EVENT_PAYLOADS[type];
  return {
    type: 'object',
    title: type,
    description: `The body of a \`${type}\` delivery, sent when ${sentWhen.replaceAll('`', '')}. \`data\`: ${dataNote}.`,
    required: ['id', 'type', 'timestamp', 'companyId', 'data'],
    properties: {
      id: { type: 'string', format: 'uuid', description: 'The event id (also in webhook-id): deduplicate on it' },
      type: { type: 'string', const: type },
      timestamp: { type: 'string', format: 'date-time', description: 'When the event happened' },
      companyId: { type: 'string', format: 'uuid' },
      data: componentRefs(data),
    },
    additionalProperties: false,
  };
}

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per catalogued event, the request this service
 * sends (Standard Webhooks headers, the JSON envelope around the event's data), and one component
 * schema per event type (`schemas`, named by webhookEventSchemaName).
 */
export function webhookEventsOpenApi(): { webhooks: Record<string, unknown>; schemas: Record<string, unknown> } {
  const header = (name: string, description: string) => ({ in: 'header', name, required: true, description, schema: { type: 'string' } });
  const schemas = Object.fromEntries(WEBHOOK_EVENT_TYPES.map((type) => [webhookEventSchemaName(type), eventSchema(type)]));
  const webhooks = Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const { sentWhen } = WEBHOOK_EVENT_PAYLOADS[type];
      const summary = `Sent when ${sentWhen.replaceAll('`', '')}`;
      const name = webhookEventSchemaName(type);
      return [
        type,
        {
          post: {
            operationId: `on${name}`,
            tags: ['Webhooks'],
            summary,
            description: `Sent to every active subscription listing \`${type}\`. Verify the signature before trusting the body (docs/webhooks.md).`,
            // Not called with our credentials: the receiver checks the signature headers instead.
            security: [],
            parameters: [
              header('webhook-id', 'The event id: the same on every retry and redelivery (deduplicate on it)'),
              header('webhook-timestamp', 'Unix seconds when this attempt was signed'),
              header('webhook-signature', 'v1,<base64 HMAC-SHA256> per secret (two during a secret rotation)'),
            ],
            requestBody: {
              required: true,
              content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
            },
            responses: {
              '200': { description: 'Received. Any 2xx counts; any other answer (or none within 10 s) is retried' },
              '410': { description: 'Gone: the subscription is switched off (ENDPOINT_GONE) and nothing more is sent' },
            },
          },
        },
      ];
    }),
  );
  return { webhooks, schemas };
}
