// Webhook subscriptions and their delivery log, for the company that owns them. Every lookup is by
// (companyId, id), so another company's subscription answers 404 like one that does not exist.
import { randomUUID } from 'node:crypto';
import { endPage, NEWEST_FIRST, startPage, toPage, type Page, type PageRequest } from '../../shared/pagination.ts';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { withTransaction, type Principal, type ServiceContext } from '../../shared/context.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import type { Backlog } from '../../shared/metrics.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { isWebhookEventType, readScopeOfEvent } from './events.ts';
import {
  deleteSubscription,
  findSubscription,
  insertSubscriptionWithinCap,
  listStoredSecrets,
  listSubscriptions,
  replaceStoredSecrets,
  rotateSubscriptionSecret,
  updateSubscription,
  type SubscriptionRow,
} from './repo/subscriptions.ts';
import {
  countPendingDeliveries,
  deleteFinishedDeliveriesBefore,
  findDelivery,
  insertAttempt,
  insertDelivery,
  listAttempts,
  listDeliveries,
  listDeliveriesMentioning,
  requeueDelivery,
  setAttemptResponseBody,
  setDeliveryPayload,
  type AttemptRow,
  type DeliveryRow,
} from './repo/delivery-log.ts';
import { countUndispatchedEvents } from '../../infra/outbox/repo.ts';
import type { DeliveryStatus } from './retry-schedule.ts';
import { generateSecret, signedHeaders, signingSecrets, webhookBody } from './signature.ts';
import { attemptError, FAILURE_DESCRIPTIONS, type WebhookTransport } from './transport.ts';

/**
 * Subscriptions a company may have (active or not). Every event is fanned out to each of them, so
 * the cap bounds the work one company's event makes; receivers that need more events use one
 * subscription listing several.
 */
export const MAX_SUBSCRIPTIONS_PER_COMPANY = 100;

/** Authenticated data of sealed signing secrets: a value sealed for something else does not open as one. */
const SECRET_PURPOSE = 'webhook-signing-secret';

/** The stored (sealed) secrets of a subscription, opened for signing. */
export function openSigningSecrets<T extends { secret: string; previousSecret: string | null }>(secrets: SecretBox, row: T): T {
  return {
    ...row,
    secret: secrets.open(row.secret, SECRET_PURPOSE),
    previousSecret: row.previousSecret === null ? null : secrets.open(row.previousSecret, SECRET_PURPOSE),
  };
}

/**
 * Seals every signing secret (current and previous) that is not yet sealed under the box's current
 * key: secrets stored in clear before encryption existed, and those under a key being rotated away
 * from. In batches, each row updated only if it still holds what was read (a rotation through the
 * API at the same time wins). Returns the number of subscriptions re-sealed.
 */
export async function resealSigningSecrets(
  ctx: ServiceContext,
  options: { box?: SecretBox; onlyClear?: boolean } = {},
): Promise<number> {
  const box = options.box ?? ctx.secrets;
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await listStoredSecrets(ctx.db, after, 500);
    if (rows.length === 0) return count;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const stale = (value: string | null) =>
        value !== null && (options.onlyClear ? !box.isSealed(value) : !box.isCurrent(value));
      if (!stale(row.secret) && !stale(row.previousSecret)) continue;
      const reseal = (value: string | null) => (value === null ? null : box.seal(box.open(value, SECRET_PURPOSE), SECRET_PURPOSE));
      if (await replaceStoredSecrets(ctx.db, row, { secret: reseal(row.secret)!, previousSecret: reseal(row.previousSecret) })) count++;
    }
  }
}

/** The old secret keeps signing this long after a rotation, so receivers can switch over. */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

export interface SubscriptionView {
  id: string;
  companyId: string;
  url: string;
  events: string[];
  active: boolean;
  disabledReason: 'ENDPOINT_GONE' | 'FAILING' | null;
  createdAt: string;
  updatedAt: string;
}

export interface SubscriptionWithSecret extends SubscriptionView {
  secret: string;
}

export interface AttemptView {
  id: string;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
}

export interface DeliveryView {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: string | null;
  /** null: the caller may not read the event's resource (see mayRead). */
  payload: string | null;
  createdAt: string;
  updatedAt: string;
  attempts: AttemptView[];
}

function toView(row: SubscriptionRow): SubscriptionView {
  return {
    id: row.id,
    companyId: row.companyId,
    url: row.url,
    events: row.events,
    active: row.active,
    disabledReason: row.disabledReason ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toAttemptView(row: AttemptRow): AttemptView {
  return {
    id: row.id,
    attemptedAt: row.attemptedAt.toISOString(),
    statusCode: row.statusCode,
    durationMs: row.durationMs,
    error: row.error,
    responseBody: row.responseBody,
  };
}

/**
 * Who manages subscriptions: the company, and the scopes that decide which events' data its
 * credential may have sent somewhere or read back from the delivery log. `webhooks:manage` alone
 * routes and inspects deliveries, but the data in them is the resource's: a key that may not read
 * candidates may not receive or read them through a webhook either.
 */
export type WebhookCaller = Pick<Principal, 'companyId' | 'scopes'>;

function mayRead(caller: WebhookCaller, eventType: string): boolean {
  const scope = readScopeOfEvent(eventType);
  return scope === null || caller.scopes.includes(scope);
}

/** 403 naming every read scope the caller lacks for these events. */
function assertMayReceive(caller: WebhookCaller, events: readonly string[]): void {
  const missing = [...new Set(events.map(readScopeOfEvent))].filter(
    (scope): scope is NonNullable<typeof scope> => scope !== null && !caller.scopes.includes(scope),
  );
  if (missing.length === 0) return;
  const refused = events.filter((type) => !mayRead(caller, type));
  throw new ForbiddenError(
    `Subscribing to ${refused.join(', ')} needs the scope ${missing.join(', ')}: the events carry the data that scope reads`,
    missing.map((scope) => ({ field: 'scope', message: `requires ${scope}` })),
  );
}

/**
 * The delivery as the caller may see it: the body sent and the receiver's answers only with the
 * event's read scope. `circuitOpenUntil`: the subscription's circuit (worker/circuit-breaker.ts): while it
 * is open, a pending delivery waits for it whatever its own retry time, and the log says so.
 */
function toDeliveryView(row: DeliveryRow, attempts: AttemptRow[], caller: WebhookCaller, circuitOpenUntil: Date | null): DeliveryView {
  const readable = mayRead(caller, row.eventType);
  const nextAttemptAt = row.nextAttemptAt && circuitOpenUntil && circuitOpenUntil > row.nextAttemptAt ? circuitOpenUntil : row.nextAttemptAt;
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    attemptCount: row.attemptCount,
    nextAttemptAt: row.status === 'PENDING' ? (nextAttemptAt?.toISOString() ?? null) : null,
    payload: readable ? row.payload : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // Receivers often echo what they got: their answers are the event's data too.
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === row.id)
      .map((attempt) => toAttemptView(readable ? attempt : { ...attempt, responseBody: null })),
  };
}

/** Known names only (the route schema checks too). */
function eventProblems(events: string[]): ErrorDetail[] {
  const details = events.flatMap((name, index) =>
    isWebhookEventType(name) ? [] : [{ field: `events[${index}]`, message: `unknown event "${name}"` }],
  );
  if (events.length === 0) details.push({ field: 'events', message: 'at least one event is required' });
  return details;
}

/** The problems with a subscription's url and events, both looked at: the route runs this on the fields that passed its schema. */
export async function subscriptionFieldProblems(
  transport: WebhookTransport,
  input: { url?: unknown; events?: unknown },
): Promise<ErrorDetail[]> {
  const details = Array.isArray(input.events) ? eventProblems(input.events as string[]) : [];
  const problem = typeof input.url === 'string' ? await transport.checkUrl(input.url) : null;
  return problem ? [...details, { field: 'url', message: problem }] : details;
}

async function checkUrl(transport: WebhookTransport, url: string): Promise<void> {
  const problem = await transport.checkUrl(url);
  if (problem) throw ValidationError.field('url', problem);
}

/** Duplicates dropped, order kept. */
function checkEvents(events: string[]): string[] {
  const details = eventProblems(events);
  if (details.length > 0) throw new ValidationError(details);
  return [...new Set(events)];
}

async function subscriptionOrNotFound(ctx: ServiceContext, companyId: string, id: string): Promise<SubscriptionRow> {
  const row = await findSubscription(ctx.db, companyId, id);
  if (!row) throw new NotFoundError('Webhook subscription');
  return row;
}

export async function createSubscription(
  ctx: ServiceContext,
  transport: WebhookTransport,
  caller: WebhookCaller,
  input: { url: string; events: string[] },
  actor?: AuditActor,
): Promise<SubscriptionWithSecret> {
  const { companyId } = caller;
  const events = checkEvents(input.events);
  assertMayReceive(caller, events);
  await checkUrl(transport, input.url);
  const now = ctx.clock.now();
  const secret = generateSecret();
  const row: SubscriptionRow = {
    id: randomUUID(),
    companyId,
    url: input.url,
    events,
    active: true,
    disabledReason: null,
    secret: ctx.secrets.seal(secret, SECRET_PURPOSE),
    previousSecret: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    consecutiveFailures: 0,
    circuitOpenUntil: null,
    createdAt: now,
    updatedAt: now,
  };
  await withTransaction(ctx, async (tx) => {
    if (!(await insertSubscriptionWithinCap(tx.db, row, MAX_SUBSCRIPTIONS_PER_COMPANY))) {
      throw new ValidationError(
        [{ field: 'url', message: `the company already has ${MAX_SUBSCRIPTIONS_PER_COMPANY} webhook subscriptions (the most allowed)` }],
        `A company can have at most ${MAX_SUBSCRIPTIONS_PER_COMPANY} webhook subscriptions; delete one before creating another`,
      );
    }
    await recordAudit(tx, { companyId, actor, action: 'webhook.created', target: { id: row.id, label: row.url }, detail: { events }, occurredAt: now });
  });
  return { ...toView(row), secret };
}

export async function listSubscriptionsPage(
  ctx: ServiceContext,
  companyId: string,
  page: PageRequest,
): Promise<Page<SubscriptionView>> {
  const position = startPage(ctx.secrets, page, 'webhooks', NEWEST_FIRST, { companyId });
  const { rows: fetched, total } = await listSubscriptions(ctx.db, companyId, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  return toPage(rows.map(toView), total, position, cursors);
}

export async function getSubscription(ctx: ServiceContext, companyId: string, id: string): Promise<SubscriptionView> {
  return toView(await subscriptionOrNotFound(ctx, companyId, id));
}

export async function updateSubscriptionSettings(
  ctx: ServiceContext,
  transport: WebhookTransport,
  caller: WebhookCaller,
  id: string,
  input: { url?: string | undefined; events?: string[] | undefined; active?: boolean | undefined },
  actor?: AuditActor,
): Promise<SubscriptionView> {
  const { companyId } = caller;
  const patch: Partial<SubscriptionRow> = {};
  if (input.events !== undefined) patch.events = checkEvents(input.events);
  const current = await subscriptionOrNotFound(ctx, companyId, id);
  // Choosing where events go, or which, is receiving them: a new URL for another key's candidate
  // events would send them to the caller as surely as a subscription of its own.
  if (input.url !== undefined || input.events !== undefined) assertMayReceive(caller, patch.events ?? current.events);
  // Another endpoint, or switched on again by the company: its circuit starts closed.
  const closeCircuit = () => Object.assign(patch, { consecutiveFailures: 0, circuitOpenUntil: null });
  if (input.url !== undefined) {
    await checkUrl(transport, input.url);
    patch.url = input.url;
    closeCircuit();
  }
  if (input.active !== undefined) {
    patch.active = input.active;
    // Switched on or off by the company: no service-set reason, and a fresh start for the
    // five-day failure count.
    patch.disabledReason = null;
    if (input.active) {
      patch.failingSince = null;
      closeCircuit();
    }
  }
  const now = ctx.clock.now();
  const row = await withTransaction(ctx, async (tx) => {
    const updated = await updateSubscription(tx.db, companyId, id, { ...patch, updatedAt: now });
    if (!updated) throw new NotFoundError('Webhook subscription');
    // What changed, in the words of the request: the URL, the events, switched on or off.
    const changes: Record<string, unknown> = {};
    if (patch.url !== undefined && patch.url !== current.url) changes.url = { from: current.url, to: patch.url };
    if (patch.events !== undefined && patch.events.join() !== current.events.join()) changes.events = { from: current.events, to: patch.events };
    if (patch.active !== undefined && patch.active !== current.active) changes.active = { from: current.active, to: patch.active };
    if (Object.keys(changes).length > 0) {
      await recordAudit(tx, { companyId, actor, action: 'webhook.updated', target: { id, label: updated.url }, detail: changes, occurredAt: now });
    }
    return updated;
  });
  return toView(row);
}

export async function removeSubscription(ctx: ServiceContext, companyId: string, id: string, actor?: AuditActor): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const deleted = await deleteSubscription(tx.db, companyId, id);
    if (!deleted) throw new NotFoundError('Webhook subscription');
    await recordAudit(tx, { companyId, actor, action: 'webhook.deleted', target: { id, label: deleted.url }, occurredAt: ctx.clock.now() });
  });
}

/** A new secret, shown once; the old one keeps signing (as a second signature) for 24 hours. */
export async function rotateSecret(ctx: ServiceContext, companyId: string, id: string, actor?: AuditActor): Promise<SubscriptionWithSecret> {
  const now = ctx.clock.now();
  const secret = generateSecret();
  const row = await withTransaction(ctx, async (tx) => {
    const rotated = await rotateSubscriptionSecret(tx.db, companyId, id, {
      secret: ctx.secrets.seal(secret, SECRET_PURPOSE),
      previousSecretExpiresAt: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
      now,
    });
    if (rotated) await recordAudit(tx, { companyId, actor, action: 'webhook.secret_rotated', target: { id, label: rotated.url }, occurredAt: now });
    return rotated;
  });
  if (!row) throw new NotFoundError('Webhook subscription');
  return { ...toView(row), secret };
}

/**
 * Sends a ping to the subscription now, through the same guarded sender as every delivery, and
 * answers what the endpoint said. Works on an inactive subscription too (to check it before
 * switching it back on). The ping is kept in the delivery log but never retried, and does not count
 * towards the subscription's failures.
 */
export async function sendTestPing(
  ctx: ServiceContext,
  transport: WebhookTransport,
  companyId: string,
  id: string,
): Promise<{ status: number; body: string }> {
  const subscription = await subscriptionOrNotFound(ctx, companyId, id);
  const now = ctx.clock.now();
  const eventId = randomUUID();
  const payload = webhookBody({
    id: eventId,
    type: 'ping',
    occurredAt: now,
    companyId,
    data: { subscriptionId: subscription.id },
  });
  const headers = signedHeaders({ msgId: eventId, timestamp: now, body: payload, secrets: signingSecrets(openSigningSecrets(ctx.secrets, subscription), now) });
  const result = await transport.send(subscription.url, headers, payload);
  const delivered = result.kind === 'response' && result.statusCode >= 200 && result.statusCode < 300;
  const deliveryId = randomUUID();
  await withTransaction(ctx, async ({ db: tx }) => {
    await insertDelivery(tx, {
      id: deliveryId,
      companyId,
      subscriptionId: subscription.id,
      eventId,
      eventType: 'ping',
      payload,
      status: delivered ? 'DELIVERED' : 'FAILED',
      attemptCount: 1,
      retryStep: 0,
      nextAttemptAt: null,
      lockedUntil: null,
      claimToken: null,
      createdAt: now,
      updatedAt: now,
    });
    await insertAttempt(tx, {
      id: randomUUID(),
      deliveryId,
      attemptedAt: now,
      statusCode: result.kind === 'response' ? result.statusCode : null,
      durationMs: result.durationMs,
      error: attemptError(result),
      responseBody: result.kind === 'response' ? result.body : null,
    });
  });
  if (result.kind === 'failure') {
    throw new DomainError(
      'WEBHOOK_UNREACHABLE',
      `The webhook endpoint could not be reached: ${FAILURE_DESCRIPTIONS[result.failure]}`,
    );
  }
  return { status: result.statusCode, body: result.body };
}

export async function listDeliveriesPage(
  ctx: ServiceContext,
  caller: WebhookCaller,
  subscriptionId: string,
  filter: { status?: DeliveryStatus | undefined },
  page: PageRequest,
): Promise<Page<DeliveryView>> {
  const { companyId } = caller;
  const subscription = await subscriptionOrNotFound(ctx, companyId, subscriptionId);
  const position = startPage(ctx.secrets, page, 'webhook-deliveries', NEWEST_FIRST, { companyId, subscriptionId, status: filter.status ?? null });
  const { rows: fetched, total } = await listDeliveries(ctx.db, subscriptionId, filter, position);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  const attempts = await listAttempts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return toPage(
    rows.map((row) => toDeliveryView(row, attempts, caller, subscription.circuitOpenUntil)),
    total,
    position,
    cursors,
  );
}

/** Queues the delivery again, due now, with a fresh retry schedule and the same webhook-id. */
export async function redeliver(
  ctx: ServiceContext,
  caller: WebhookCaller,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const { companyId } = caller;
  const subscription = await subscriptionOrNotFound(ctx, companyId, subscriptionId);
  if (!(await findDelivery(ctx.db, subscriptionId, deliveryId))) throw new NotFoundError('Webhook delivery');
  if (!subscription.active) {
    throw new ConflictError('The subscription is not active: set active to true first', [
      { field: 'active', message: 'is false' },
    ]);
  }
  const row = await requeueDelivery(ctx.db, deliveryId, ctx.clock.now());
  if (!row) throw new NotFoundError('Webhook delivery');
  return toDeliveryView(row, await listAttempts(ctx.db, [row.id]), caller, subscription.circuitOpenUntil);
}

/** The delivery backlog for /metrics: events not yet fanned out and deliveries not yet done, with the age of the oldest. */
export async function webhookBacklog(ctx: ServiceContext): Promise<Backlog> {
  const [outbox, deliveries] = await Promise.all([countUndispatchedEvents(ctx.db), countPendingDeliveries(ctx.db)]);
  const now = ctx.clock.now().getTime();
  const age = (at: Date | null) => (at === null ? 0 : Math.max(0, (now - at.getTime()) / 1000));
  return {
    outboxEvents: outbox.events,
    outboxOldestSeconds: age(outbox.oldestEvent),
    pendingDeliveries: deliveries.pending,
    pendingOldestSeconds: age(deliveries.oldestPending),
  };
}

/** Retention: deletes up to `limit` finished deliveries (with their attempts) older than `before`. */
export async function pruneFinishedDeliveries(ctx: ServiceContext, before: Date, limit: number): Promise<number> {
  return deleteFinishedDeliveriesBefore(ctx.db, before, limit);
}

// ---- erasure and export of a person's data (docs/decisions.md, "Personal data") -----------------

/**
 * Rewrites the delivery log entries whose body names any of `ids`: the stored body that was (or will
 * be) sent, and what receivers answered, through `scrub`. In the caller's transaction when `ctx` is
 * inside one (an erasure rewrites everything that names the person at once).
 */
export async function scrubDeliveriesMentioning(
  ctx: ServiceContext,
  companyId: string,
  ids: string[],
  scrub: (text: string) => string,
): Promise<void> {
  await withTransaction(ctx, async ({ db }) => {
    const deliveries = await listDeliveriesMentioning(db, companyId, ids);
    for (const delivery of deliveries) {
      const payload = scrub(delivery.payload);
      if (payload !== delivery.payload) await setDeliveryPayload(db, delivery.id, payload);
    }
    const attempts = await listAttempts(
      db,
      deliveries.map((delivery) => delivery.id),
    );
    for (const attempt of attempts) {
      if (attempt.responseBody === null) continue;
      const body = scrub(attempt.responseBody);
      if (body !== attempt.responseBody) await setAttemptResponseBody(db, attempt.id, body);
    }
  });
}

export interface DeliveryExport {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: string;
  attemptCount: number;
  createdAt: string;
}

/** The delivery log entries whose body names any of `ids` (the bodies are the events themselves). */
export async function exportDeliveriesMentioning(ctx: ServiceContext, companyId: string, ids: string[]): Promise<DeliveryExport[]> {
  const deliveries = await listDeliveriesMentioning(ctx.db, companyId, ids);
  return deliveries.map((delivery) => ({
    id: delivery.id,
    subscriptionId: delivery.subscriptionId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    createdAt: delivery.createdAt.toISOString(),
  }));
}
