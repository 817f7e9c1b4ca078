import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { auditActorOf } from '../../http/actor.ts';
import { principalOf } from '../../http/auth.ts';
import { entityTag } from '../../shared/etag.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { PageQuery, Paginated } from '../../http/pagination.ts';
import { READ_SCOPE_BY_RESOURCE, WEBHOOK_EVENT_TYPES } from './events.ts';
import { CreateWebhookBody, UpdateWebhookBody } from './schemas.ts';
import {
  createSubscription,
  MAX_SUBSCRIPTIONS_PER_COMPANY,
  getSubscription,
  listDeliveriesPage,
  listSubscriptionsPage,
  redeliver,
  removeSubscription,
  rotateSecret,
  sendTestPing,
  subscriptionFieldProblems,
  updateSubscriptionSettings,
} from './service.ts';

const tags = ['Webhooks'];
const auth = { scope: 'webhooks:manage' as const };
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });
const DeliveryParams = Type.Object({ id: Type.String({ format: 'uuid' }), deliveryId: Type.String({ format: 'uuid' }) });

const CATALOGUE = `Events: ${WEBHOOK_EVENT_TYPES.map((name) => `\`${name}\``).join(', ')}.`;

const READ_SCOPES = `An event carries its resource's data, so subscribing to it needs that resource's read scope too: ${Object.entries(
  READ_SCOPE_BY_RESOURCE,
)
  .map(([resource, scope]) => `\`${resource}.*\` \`${scope}\``)
  .join(', ')} (403 naming the missing scope otherwise).`;

const DELIVERY_NOTES = `Each event is POSTed as JSON \`{ id, type, timestamp, companyId, data }\` and signed the
[Standard Webhooks](https://www.standardwebhooks.com) way: headers \`webhook-id\` (the event id, the same on every
retry: deduplicate by it), \`webhook-timestamp\` and \`webhook-signature\`. Delivery is at least once, with no
ordering promise. A 2xx answer is success; anything else, no answer within 10 s, or a redirect (never followed) is
retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (each +-20%). 410 Gone switches the subscription off at
once, as do 5 days of failures in a row.`;

const unreachable = {
  ...Type.Ref('ErrorEnvelope'),
  description:
    'WEBHOOK_UNREACHABLE: no HTTP answer came (connection refused, timeout, TLS failure, address not allowed); the message names the kind of failure',
};

export async function webhookRoutes(app: AppInstance): Promise<void> {
  const transport = app.deps.webhookTransport;
  const bodyChecks = (body: Record<string, unknown>) => subscriptionFieldProblems(transport, body);

  app.post(
    '/public/v1/webhooks',
    {
      config: { auth, bodyChecks },
      schema: {
        tags,
        operationId: 'createWebhookSubscription',
        summary: 'Create a webhook subscription',
        description: `Answers the subscription with its signing \`secret\`, shown only this once. A company has at most ${MAX_SUBSCRIPTIONS_PER_COMPANY} subscriptions (active or not): the next create answers 422 VALIDATION_ERROR; delete one first, or list several events in one subscription.\n\n${READ_SCOPES}\n\n${CATALOGUE}\n\n${DELIVERY_NOTES}`,
        body: CreateWebhookBody,
        response: { 201: Type.Ref('WebhookSubscriptionWithSecret'), ...errorResponses([400, 415, 422]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const created = await createSubscription(app.ctx, transport, principal, request.body, await auditActorOf(app.ctx, principal));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/public/v1/webhooks',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'listWebhookSubscriptions',
        summary: 'List webhook subscriptions',
        querystring: Type.Object(PageQuery),
        response: { 200: Paginated(Type.Ref('WebhookSubscription')), ...errorResponses([422]) },
      },
    },
    async (request) => listSubscriptionsPage(app.ctx, principalOf(request).companyId, request.query),
  );

  app.get(
    '/public/v1/webhooks/:id',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'getWebhookSubscription',
        summary: 'Get a webhook subscription',
        params: IdParams,
        response: { 200: { ...Type.Ref('WebhookSubscription'), headers: { ETag: { type: 'string', description: 'Version of this representation (changes whenever the answer would)' } } }, ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const subscription = await getSubscription(app.ctx, principalOf(request).companyId, request.params.id);
      reply.header('ETag', entityTag(subscription));
      return subscription;
    },
  );

  app.patch(
    '/public/v1/webhooks/:id',
    {
      config: { auth, bodyChecks },
      schema: {
        tags,
        operationId: 'updateWebhookSubscription',
        summary: 'Update a webhook subscription',
        description:
          'Changes url, events or active (merge). Setting active to true switches a subscription back on, including ' +
          'one the service switched off, and resumes the retries still pending. Events that occur while a ' +
          'subscription is inactive are not delivered to it. Changing url or events needs the read scope of every ' +
          'event the subscription then lists, as creating it does (403 naming the missing scope).',
        params: IdParams,
        body: UpdateWebhookBody,
        response: { 200: Type.Ref('WebhookSubscription'), ...errorResponses([400, 404, 415, 422]) },
      },
    },
    async (request) =>
      updateSubscriptionSettings(app.ctx, transport, principalOf(request), request.params.id, request.body, await auditActorOf(app.ctx, principalOf(request))),
  );

  app.delete(
    '/public/v1/webhooks/:id',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'deleteWebhookSubscription',
        summary: 'Delete a webhook subscription',
        description: 'Deletes the subscription and its delivery log; nothing more is sent to it.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await removeSubscription(app.ctx, principal.companyId, request.params.id, await auditActorOf(app.ctx, principal));
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/public/v1/webhooks/:id/rotate-secret',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'Answers the new `secret`, shown only this once. For 24 hours every delivery carries two signatures, one ' +
          'with the new secret and one with the old, so receivers can switch without losing a message.',
        params: IdParams,
        response: { 200: Type.Ref('WebhookSubscriptionWithSecret'), ...errorResponses([404, 422]) },
      },
    },
    async (request) => rotateSecret(app.ctx, principalOf(request).companyId, request.params.id, await auditActorOf(app.ctx, principalOf(request))),
  );

  app.post(
    '/public/v1/webhooks/:id/test',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'pingWebhookSubscription',
        summary: 'Send a test ping',
        description:
          'Sends a signed `ping` event to the subscription now (active or not) and answers what the endpoint ' +
          'returned. The ping appears in the delivery log; it is not retried.',
        params: IdParams,
        response: { 200: Type.Ref('WebhookTestResult'), ...errorResponses([404, 422]), 502: unreachable },
      },
    },
    async (request) => sendTestPing(app.ctx, transport, principalOf(request).companyId, request.params.id),
  );

  app.get(
    '/public/v1/webhooks/:id/deliveries',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'listWebhookDeliveries',
        summary: 'List the deliveries of a subscription',
        description:
          'Newest first, each with every attempt made: time, status code, duration, error and body excerpt. The body sent ' +
          '(`payload`) and the answers (`responseBody`) are the event\'s data: they are null unless the caller holds the ' +
          'read scope of the event\'s resource (`candidates:read` for `candidate.*`, and so on). Pages by `cursor` like every list.',
        params: IdParams,
        querystring: Type.Object({
          ...PageQuery,
          status: Type.Optional(Type.Enum(['PENDING', 'DELIVERED', 'FAILED'], { description: 'Only deliveries in this state' })),
        }),
        response: { 200: Paginated(Type.Ref('WebhookDelivery')), ...errorResponses([404, 422]) },
      },
    },
    async (request) => {
      const { page, size, cursor, status } = request.query;
      return listDeliveriesPage(app.ctx, principalOf(request), request.params.id, { status }, { page, size, cursor });
    },
  );

  app.post(
    '/public/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      config: { auth },
      schema: {
        tags,
        operationId: 'redeliverWebhookDelivery',
        summary: 'Redeliver',
        description:
          'Queues the delivery again, due now, with a fresh retry schedule and the same `webhook-id`. 202: the worker ' +
          'sends it within moments. 409 when the subscription is not active.',
        params: DeliveryParams,
        response: { 202: Type.Ref('WebhookDelivery'), ...errorResponses([404, 409, 422]) },
      },
    },
    async (request, reply) => {
      const delivery = await redeliver(
        app.ctx,
        principalOf(request),
        request.params.id,
        request.params.deliveryId,
      );
      return reply.status(202).send(delivery);
    },
  );
}
