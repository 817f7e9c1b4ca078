// The delivery worker: fans outbox events out to subscriptions, then sends due deliveries.
// Several workers (processes or servers) may share one PostgreSQL: fan-out locks event rows with
// SKIP LOCKED, sending takes a lease on each delivery, so each attempt has exactly one sender.
// Nothing is sent inside a transaction: the claim commits first, the outcome is written after, so
// a worker killed mid-send leaves a lease that runs out and the delivery is tried again.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import {
  claimDueDeliveries,
  disableSubscription,
  finishClaimedDelivery,
  insertAttemptIfDeliveryExists,
  insertDeliveries,
  lockUndispatchedEvents,
  markEventsDispatched,
  markSubscriptionFailing,
  markSubscriptionHealthy,
  activeSubscriptionsOf,
  type ClaimedDelivery,
  type DeliveryRow,
} from './repo.ts';
import { attemptOutcome, failedLongEnoughToDisable } from './retry-schedule.ts';
import { openSigningSecrets } from './service.ts';
import { signedHeaders, signingSecrets, webhookBody } from './signature.ts';
import { attemptError, createWebhookTransport, type WebhookTransport } from './transport.ts';

/** The subset of a pino logger the worker uses (Fastify's app.log fits). */
export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerDeps {
  db: Db;
  clock: Clock;
  /** Opens the stored (sealed) signing secrets. */
  secrets: SecretBox;
  transport: WebhookTransport;
  log: WorkerLog;
  /** How long a claimed delivery stays with its worker before another may take it over. */
  leaseMs: number;
  /** Deliveries sent at the same time. */
  concurrency: number;
  /** Jitter source for the retry schedule. */
  random?: () => number;
}

const FAN_OUT_BATCH = 100;

/**
 * Fans one batch of undispatched events out into deliveries, in one transaction: each event gets a
 * delivery per active subscription of its company that lists its type and existed when it
 * occurred, and is marked dispatched. Returns the number of events handled.
 */
export async function dispatchEventBatch(deps: Pick<WorkerDeps, 'db' | 'clock'>, limit = FAN_OUT_BATCH): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const batch = await lockUndispatchedEvents(tx, limit);
    if (batch.length === 0) return 0;
    const now = deps.clock.now();
    const subscriptions = await activeSubscriptionsOf(tx, [...new Set(batch.map((event) => event.companyId))]);
    const deliveries: DeliveryRow[] = [];
    for (const event of batch) {
      for (const subscription of subscriptions) {
        if (subscription.companyId !== event.companyId) continue;
        if (!subscription.events.includes(event.type) || event.type === 'ping') continue;
        if (subscription.createdAt > event.occurredAt) continue;
        deliveries.push({
          id: randomUUID(),
          companyId: event.companyId,
          subscriptionId: subscription.id,
          eventId: event.id,
          eventType: event.type,
          payload: webhookBody(event),
          status: 'PENDING',
          attemptCount: 0,
          retryStep: 0,
          nextAttemptAt: now,
          lockedUntil: null,
          claimToken: null,
          createdAt: now,
          updatedAt: now,
        });
      }
    }
    await insertDeliveries(tx, deliveries);
    await markEventsDispatched(
      tx,
      batch.map((event) => event.id),
      now,
    );
    return batch.length;
  });
}

export async function claimDeliveries(deps: Pick<WorkerDeps, 'db' | 'clock' | 'leaseMs'>, limit: number) {
  const now = deps.clock.now();
  return claimDueDeliveries(deps.db, {
    now,
    leaseUntil: new Date(now.getTime() + deps.leaseMs),
    token: randomUUID(),
    limit,
  });
}

/** Sends one claimed delivery and records the attempt and what follows from it. */
export async function attemptDelivery(deps: WorkerDeps, claimed: ClaimedDelivery): Promise<void> {
  const { delivery } = claimed;
  const attemptedAt = deps.clock.now();
  const headers = signedHeaders({
    msgId: delivery.eventId,
    timestamp: attemptedAt,
    body: delivery.payload,
    secrets: signingSecrets(openSigningSecrets(deps.secrets, claimed), attemptedAt),
  });
  const result = await deps.transport.send(claimed.url, headers, delivery.payload);
  const statusCode = result.kind === 'response' ? result.statusCode : null;
  const outcome = attemptOutcome(statusCode, delivery.retryStep, deps.random);
  const now = deps.clock.now();

  const applied = await deps.db.transaction(async (tx) => {
    await insertAttemptIfDeliveryExists(tx, {
      id: randomUUID(),
      deliveryId: delivery.id,
      attemptedAt,
      statusCode,
      durationMs: result.durationMs,
      error: attemptError(result),
      responseBody: result.kind === 'response' ? result.body : null,
    });
    const row = await finishClaimedDelivery(tx, {
      id: delivery.id,
      token: delivery.claimToken!,
      now,
      status: outcome.status,
      retryStep: outcome.retryStep,
      nextAttemptAt: outcome.retryInMs === null ? null : new Date(now.getTime() + outcome.retryInMs),
    });
    // Lease lost (this worker stalled past it) or subscription deleted: the new holder decides.
    if (!row) return false;
    if (outcome.subscription === 'healthy') {
      await markSubscriptionHealthy(tx, delivery.subscriptionId);
    } else if (outcome.subscription === 'gone') {
      await disableSubscription(tx, delivery.subscriptionId, 'ENDPOINT_GONE', now);
    } else {
      const subscription = await markSubscriptionFailing(tx, delivery.subscriptionId, now);
      if (subscription?.active && subscription.failingSince && failedLongEnoughToDisable(subscription.failingSince, now)) {
        await disableSubscription(tx, delivery.subscriptionId, 'FAILING', now);
      }
    }
    return true;
  });

  const fields = {
    deliveryId: delivery.id,
    subscriptionId: delivery.subscriptionId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    statusCode,
    error: attemptError(result),
    durationMs: result.durationMs,
    outcome: outcome.status,
  };
  if (!applied) deps.log.warn(fields, 'webhook attempt finished after its lease was lost');
  else if (outcome.status === 'DELIVERED') deps.log.info(fields, 'webhook delivered');
  else deps.log.warn(fields, 'webhook attempt failed');
}

/**
 * One full pass, for tests and one-shot runs: fan out every pending event, then send every
 * delivery due now (each once) until none is left.
 */
export async function runWebhookWorkerOnce(deps: WorkerDeps): Promise<{ dispatched: number; attempted: number }> {
  let dispatched = 0;
  for (let n = await dispatchEventBatch(deps); n > 0; n = await dispatchEventBatch(deps)) dispatched += n;
  let attempted = 0;
  for (;;) {
    const claimed = await claimDeliveries(deps, deps.concurrency);
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((c) => attemptDelivery(deps, c)));
    attempted += claimed.length;
  }
  return { dispatched, attempted };
}

export interface WebhookWorker {
  /** Stops claiming, lets sends in flight finish (each bounded by the send timeout), releases. */
  stop(): Promise<void>;
}

export interface LoopOptions {
  pollMs: number;
}

/** The long-running loop: keeps up to `concurrency` sends in flight, polls when idle. */
export function runWebhookWorkerLoop(deps: WorkerDeps, options: LoopOptions): WebhookWorker {
  let stopped = false;
  let wake: (() => void) | undefined;
  const inFlight = new Set<Promise<void>>();

  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        if (wake === done) wake = undefined;
        resolve();
      }
      wake = done;
      // A finished send frees a slot: look for more work at once.
      for (const send of inFlight) void send.then(done, done);
    });

  const loop = (async () => {
    while (!stopped) {
      let progressed = false;
      try {
        if ((await dispatchEventBatch(deps)) > 0) progressed = true;
        const free = deps.concurrency - inFlight.size;
        if (free > 0 && !stopped) {
          for (const claimed of await claimDeliveries(deps, free)) {
            progressed = true;
            const send: Promise<void> = attemptDelivery(deps, claimed)
              .catch((error: unknown) => deps.log.error({ err: error, deliveryId: claimed.delivery.id }, 'webhook attempt could not be recorded'))
              .finally(() => inFlight.delete(send));
            inFlight.add(send);
          }
        }
      } catch (error) {
        deps.log.error({ err: error }, 'webhook worker pass failed');
      }
      if (stopped) break;
      if (!progressed || inFlight.size >= deps.concurrency) await pause(options.pollMs);
    }
    await Promise.allSettled([...inFlight]);
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

/**
 * Starts delivery for a process: the server in the embedded default (PGlite is single-process, so
 * the server is the only worker there) or the `npm run worker` entry.
 */
export function startWebhookWorker(input: {
  database: Database;
  config: Config;
  clock: Clock;
  secrets: SecretBox;
  log: WorkerLog;
  transport?: WebhookTransport;
}): WebhookWorker {
  const transport = input.transport ?? createWebhookTransport({ allowLocal: input.config.webhookAllowLocal });
  const worker = runWebhookWorkerLoop(
    {
      db: input.database.db,
      clock: input.clock,
      secrets: input.secrets,
      transport,
      log: input.log,
      leaseMs: input.config.webhookLeaseSeconds * 1000,
      concurrency: input.config.webhookConcurrency,
    },
    { pollMs: input.config.webhookPollMs },
  );
  input.log.info(
    { pollMs: input.config.webhookPollMs, concurrency: input.config.webhookConcurrency },
    'webhook delivery worker started',
  );
  return {
    async stop() {
      await worker.stop();
      if (!input.transport) await transport.close();
    },
  };
}
