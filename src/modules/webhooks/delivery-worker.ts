// The delivery worker: fans outbox events out to subscriptions, then sends due deliveries.
// Several workers (processes or servers) may share one PostgreSQL: fan-out locks event rows with
// SKIP LOCKED, sending takes a lease on each delivery, so each attempt has exactly one sender.
// Nothing is sent inside a transaction: the claim commits first, the outcome is written after, so
// a worker killed mid-send leaves a lease that runs out and the delivery is tried again.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Clock } from '../../shared/clock.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { noDeliveryMetrics, type DeliveryMetrics } from '../../shared/metrics.ts';
import {
  claimDueDeliveries,
  disableSubscription,
  finishClaimedDelivery,
  insertAttemptIfDeliveryExists,
  insertDeliveriesForEvents,
  markSubscriptionFailing,
  markSubscriptionHealthy,
  recordDeliveredAttempts,
  type AttemptRow,
  type ClaimedDelivery,
} from './repo.ts';
import { lockUndispatchedEvents, markEventDispatchFailed, markEventsDispatched } from '../../infra/outbox/repo.ts';
import { attemptOutcome, failedLongEnoughToDisable, type AttemptOutcome } from './retry-schedule.ts';
import { openSigningSecrets } from './service.ts';
import { signedHeaders, signingSecrets, webhookBody } from './signature.ts';
import { attemptError, type SendResult, type WebhookTransport } from './transport.ts';

/** The subset of a pino logger the worker uses (Fastify's app.log fits). */
export interface WorkerLog {
  debug(obj: object, msg?: string): void;
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
  /**
   * Deliveries of one subscription in flight at once, across all workers (default 50), so one
   * company's slow endpoints cannot take every slot.
   */
  perSubscriptionConcurrency?: number;
  /**
   * Deliveries of one company in flight at once, across all workers (default: half of
   * `concurrency`), so one company's many hanging endpoints leave the other companies their slots.
   */
  perCompanyConcurrency?: number;
  /** The circuit breaker per subscription (default DEFAULT_CIRCUIT). */
  circuit?: CircuitSettings;
  /** Jitter source for the retry schedule. */
  random?: () => number;
  /** Attempts by outcome, and the time from event to receipt. */
  metrics?: DeliveryMetrics;
}

const FAN_OUT_BATCH = 100;
/** A poisoned event waits 30 s after its first failed fan-out, doubling up to an hour. */
const FAN_OUT_RETRY_BASE_MS = 30_000;
const FAN_OUT_RETRY_MAX_MS = 60 * 60 * 1000;

export function fanOutRetryDelayMs(failures: number): number {
  return Math.min(FAN_OUT_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), FAN_OUT_RETRY_MAX_MS);
}

/**
 * Fans one batch of undispatched events out into deliveries and marks them dispatched, in one
 * transaction: each event gets a delivery per active subscription of its company that lists its
 * type and existed when it occurred. The batch is one set-based statement; if it fails, the batch
 * is rolled back and taken again with each event tried alone inside a savepoint, so the events that
 * can be fanned out are, and the one that cannot is set aside (retried later, with a growing wait)
 * instead of rolling the batch back on every poll forever. Returns the number of events handled
 * (fanned out or set aside).
 */
export async function dispatchEventBatch(
  deps: Pick<WorkerDeps, 'db' | 'clock'> & { log?: WorkerLog },
  limit = FAN_OUT_BATCH,
): Promise<number> {
  return (await fanOut(deps, limit)).handled;
}

/**
 * The fan-out, and with `claim` the claim of up to `claim.slots` deliveries in the same transaction
 * once events were fanned out: the deliveries an event just made leave without a second
 * transaction's round trips (a woken delivery waits for every one of them).
 */
async function fanOut(
  deps: Pick<WorkerDeps, 'db' | 'clock'> & { log?: WorkerLog },
  limit: number,
  claim?: { deps: WorkerDeps; slots: number },
): Promise<{ handled: number; claimed: ClaimedDelivery[] }> {
  // The common case without savepoints: a woken delivery waits for this pass, each round trip counts.
  try {
    return await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const batch = await lockUndispatchedEvents(tx, limit, now);
      if (batch.length === 0) return { handled: 0, claimed: [] };
      await insertDeliveriesForEvents(tx, batch.map((event) => ({ eventId: event.id, payload: webhookBody(event) })), now);
      await markEventsDispatched(tx, batch.map((event) => event.id), now);
      const claimed = claim && claim.slots > 0 ? await claimDeliveries({ ...claim.deps, db: tx }, claim.slots, { inTransaction: true }) : [];
      return { handled: batch.length, claimed };
    });
  } catch {
    // One of them is poisoned: find out which, event by event.
  }
  const handled = await deps.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const batch = await lockUndispatchedEvents(tx, limit, now);
    for (const event of batch) {
      const item = { eventId: event.id, payload: webhookBody(event) };
      try {
        await tx.transaction(async (savepoint) => {
          await insertDeliveriesForEvents(savepoint, [item], now);
          await markEventsDispatched(savepoint, [item.eventId], now);
        });
      } catch (error) {
        const failures = await markEventDispatchFailed(
          tx,
          item.eventId,
          (n) => new Date(now.getTime() + fanOutRetryDelayMs(n)),
        );
        deps.log?.error({ err: error, eventId: item.eventId, failures }, 'webhook fan-out of an event failed; set aside for a retry');
      }
    }
    return batch.length;
  });
  return { handled, claimed: [] };
}

export const DEFAULT_PER_SUBSCRIPTION_CONCURRENCY = 50;

/**
 * An endpoint whose attempts fail `failures` times in a row (no answer in time, no connection, or
 * an answer other than 2xx) has its circuit opened: its deliveries wait `cooldownMs`, then one is
 * sent as a probe; a success closes the circuit, a failure opens it again. A hanging endpoint then
 * holds a slot for one probe per cool-down instead of its every delivery's attempts.
 */
export interface CircuitSettings {
  failures: number;
  cooldownMs: number;
}

export const DEFAULT_CIRCUIT: CircuitSettings = { failures: 5, cooldownMs: 60_000 };

/** The company cap when none is set: half a worker's slots stay for the other companies. */
export function defaultCompanyConcurrency(concurrency: number): number {
  return Math.max(1, Math.ceil(concurrency / 2));
}

export async function claimDeliveries(
  deps: Pick<WorkerDeps, 'db' | 'clock' | 'leaseMs' | 'concurrency' | 'perSubscriptionConcurrency' | 'perCompanyConcurrency' | 'circuit'>,
  limit: number,
  options: { inTransaction?: boolean } = {},
) {
  const now = deps.clock.now();
  return claimDueDeliveries(
    deps.db,
    {
      now,
      leaseUntil: new Date(now.getTime() + deps.leaseMs),
      token: randomUUID(),
      limit,
      perSubscription: deps.perSubscriptionConcurrency ?? DEFAULT_PER_SUBSCRIPTION_CONCURRENCY,
      perCompany: deps.perCompanyConcurrency ?? defaultCompanyConcurrency(deps.concurrency),
      circuitFailures: (deps.circuit ?? DEFAULT_CIRCUIT).failures,
    },
    options,
  );
}

/** A claimed delivery, sent: what came back and what it means. */
interface SentAttempt {
  claimed: ClaimedDelivery;
  attempt: AttemptRow;
  result: SendResult;
  outcome: AttemptOutcome;
  now: Date;
}

async function sendClaimed(deps: WorkerDeps, claimed: ClaimedDelivery): Promise<SentAttempt> {
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
  const attempt: AttemptRow = {
    id: randomUUID(),
    deliveryId: delivery.id,
    attemptedAt,
    statusCode,
    durationMs: result.durationMs,
    error: attemptError(result),
    responseBody: result.kind === 'response' ? result.body : null,
  };
  return { claimed, attempt, result, outcome: attemptOutcome(statusCode, delivery.retryStep, deps.random), now: deps.clock.now() };
}

function nextAttemptAt(sent: SentAttempt): Date | null {
  return sent.outcome.retryInMs === null ? null : new Date(sent.now.getTime() + sent.outcome.retryInMs);
}

/** Records one attempt and what follows from it; answers false when the lease was lost. */
async function recordAttempt(deps: WorkerDeps, sent: SentAttempt): Promise<boolean> {
  const { delivery } = sent.claimed;
  const { outcome, now } = sent;
  const circuit = deps.circuit ?? DEFAULT_CIRCUIT;
  let circuitOpened: { failures: number; until: Date } | undefined;
  const applied = await deps.db.transaction(async (tx) => {
    await insertAttemptIfDeliveryExists(tx, sent.attempt, delivery.payload);
    const row = await finishClaimedDelivery(tx, {
      id: delivery.id,
      token: delivery.claimToken!,
      now,
      status: outcome.status,
      retryStep: outcome.retryStep,
      nextAttemptAt: nextAttemptAt(sent),
    });
    // Lease lost (this worker stalled past it) or subscription deleted: the new holder decides.
    if (!row) return false;
    if (outcome.subscription === 'healthy') {
      await markSubscriptionHealthy(tx, delivery.subscriptionId);
    } else if (outcome.subscription === 'gone') {
      await disableSubscription(tx, delivery.subscriptionId, 'ENDPOINT_GONE', now);
    } else {
      const failing = await markSubscriptionFailing(tx, delivery.subscriptionId, now, {
        failures: circuit.failures,
        openUntil: new Date(now.getTime() + circuit.cooldownMs),
        attemptedAt: sent.attempt.attemptedAt,
      });
      const subscription = failing?.row;
      if (failing?.opened && subscription?.circuitOpenUntil) {
        circuitOpened = { failures: subscription.consecutiveFailures, until: subscription.circuitOpenUntil };
      }
      if (subscription?.active && subscription.failingSince && failedLongEnoughToDisable(subscription.failingSince, now)) {
        await disableSubscription(tx, delivery.subscriptionId, 'FAILING', now);
      }
    }
    return true;
  });
  if (circuitOpened) {
    deps.log.warn(
      { subscriptionId: delivery.subscriptionId, consecutiveFailures: circuitOpened.failures, circuitOpenUntil: circuitOpened.until.toISOString() },
      'webhook endpoint keeps failing: its deliveries wait until the circuit closes, then one probe',
    );
  }
  return applied;
}

/** Logs and counts an attempt once its outcome is written (applied: the lease was still held). */
function reportAttempt(deps: WorkerDeps, sent: SentAttempt, applied: boolean): void {
  const { delivery } = sent.claimed;
  const { outcome, result, attempt } = sent;
  const fields = {
    deliveryId: delivery.id,
    subscriptionId: delivery.subscriptionId,
    eventId: delivery.eventId,
    eventType: delivery.eventType,
    statusCode: attempt.statusCode,
    error: attempt.error,
    durationMs: result.durationMs,
    outcome: outcome.status,
  };
  const metrics = deps.metrics ?? noDeliveryMetrics;
  const attemptNumber = delivery.attemptCount + 1;
  // Routine successes at debug (one line per delivery would drown everything else at info);
  // failures at warn, naming the subscription, since someone may need to act on them.
  if (!applied) {
    metrics.attempt('lease_lost', attemptNumber);
    deps.log.warn(fields, 'webhook attempt finished after its lease was lost');
  } else if (outcome.status === 'DELIVERED') {
    metrics.attempt('delivered', attemptNumber);
    const occurredAt = eventTime(delivery.payload);
    if (occurredAt !== null) metrics.delivered((sent.now.getTime() - occurredAt) / 1000);
    deps.log.debug(fields, 'webhook delivered');
  } else {
    metrics.attempt(outcome.status === 'FAILED' ? 'failed' : 'retrying', attemptNumber);
    deps.log.warn(fields, 'webhook attempt failed');
  }
}

/** Sends one claimed delivery and records the attempt and what follows from it. */
export async function attemptDelivery(deps: WorkerDeps, claimed: ClaimedDelivery): Promise<void> {
  const sent = await sendClaimed(deps, claimed);
  reportAttempt(deps, sent, await recorderOf(deps).record(sent));
}

/** One recorder per worker (its deps), so the attempts of all its sends are grouped together. */
const recorders = new WeakMap<WorkerDeps, OutcomeRecorder>();

function recorderOf(deps: WorkerDeps): OutcomeRecorder {
  let recorder = recorders.get(deps);
  if (!recorder) {
    recorder = outcomeRecorder(deps);
    recorders.set(deps, recorder);
  }
  return recorder;
}

interface OutcomeRecorder {
  /** Writes the attempt's outcome; answers false when the lease was lost meanwhile. */
  record(sent: SentAttempt): Promise<boolean>;
}

/** Successes written in one statement at most this many at a time. */
const RECORD_BATCH = 500;
/**
 * Failed attempts written at once, at most. A company's hanging endpoints time out together (their
 * sends were claimed together): a hundred one-attempt transactions at once would queue every other
 * use of the pool, the next claim and other companies' outcomes, behind them.
 */
const FAILURE_WRITERS = 2;

/**
 * Writes attempt outcomes. Successes, the common case at volume, are grouped: the first is written
 * at once and those finishing meanwhile gather for the next statement (no added wait, one statement
 * for many deliveries); each delivery keeps its own lease and conditional update. Anything else
 * (a failure, a 410) takes the one-attempt transaction, which also decides about the subscription.
 */
function outcomeRecorder(deps: WorkerDeps): OutcomeRecorder {
  let queue: Array<{ sent: SentAttempt; resolve: (applied: boolean) => void; reject: (error: unknown) => void }> = [];
  let running: Promise<void> | undefined;
  const failures: Array<() => void> = [];
  let failureWriters = 0;

  async function recordFailure(sent: SentAttempt): Promise<boolean> {
    if (failureWriters < FAILURE_WRITERS) failureWriters++;
    // A writer that finishes hands its place to the next waiting one.
    else await new Promise<void>((resolve) => failures.push(resolve));
    try {
      return await recordAttempt(deps, sent);
    } finally {
      const next = failures.shift();
      if (next) next();
      else failureWriters--;
    }
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, RECORD_BATCH);
      queue = queue.slice(RECORD_BATCH);
      let applied: Set<string> | undefined;
      try {
        applied = await recordDeliveredAttempts(
          deps.db,
          batch.map(({ sent }) => ({
            attempt: sent.attempt,
            sentPayload: sent.claimed.delivery.payload,
            token: sent.claimed.delivery.claimToken!,
            status: sent.outcome.status,
            retryStep: sent.outcome.retryStep,
            nextAttemptAt: nextAttemptAt(sent),
            now: sent.now,
          })),
        );
      } catch {
        // One row can fail the statement (its delivery deleted just now): write them one by one.
      }
      for (const item of batch) {
        if (applied) item.resolve(applied.has(item.sent.claimed.delivery.id));
        else await recordAttempt(deps, item.sent).then(item.resolve, item.reject);
      }
    }
    running = undefined;
  }

  return {
    record(sent) {
      if (sent.outcome.subscription !== 'healthy') return recordFailure(sent);
      return new Promise((resolve, reject) => {
        queue.push({ sent, resolve, reject });
        running ??= flush();
      });
    },
  };
}

/** The event's time, from the signed body's `timestamp` (see webhookBody). */
function eventTime(payload: string): number | null {
  try {
    const at = Date.parse((JSON.parse(payload) as { timestamp?: string }).timestamp ?? '');
    return Number.isNaN(at) ? null : at;
  } catch {
    return null;
  }
}

/**
 * One full pass (the CLI's `webhooks deliver`, for a deployment without a running worker): fan out
 * every pending event, then send every delivery due now (each once) until none is left.
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
  /** Wakes the loop when an outbox event is committed (NOTIFY events_recorded, migrations 0016 and 0024). */
  notifications?: ServiceContext['notifications'];
}

/**
 * After a fan-out woken by a notification, the fan-outs that follow if nothing else wakes the loop,
 * each this long after the one before: of the transactions committing at the same moment only one
 * notifies (migration 0024), and the others' events may become visible just after the woken
 * fan-out read. Their commits end within a WAL flush of the notifier's.
 */
const RECHECKS_MS = [10, 50, 250];

/**
 * The long-running loop: keeps up to `concurrency` sends in flight, polls when idle. Fan-out runs
 * when an event was committed (or the last batch was full, or a poll interval passed), not on every
 * finished send: at volume a pass is one claim of the slots freed meanwhile.
 */
export function runWebhookWorkerLoop(deps: WorkerDeps, options: LoopOptions): WebhookWorker {
  let stopped = false;
  let wake: (() => void) | undefined;
  /** An event was committed since the last fan-out began: fan out again before pausing. */
  let signalled = false;
  /** The last fan-out took a full batch: more may be waiting. */
  let moreToFanOut = true;
  /** The rechecks (RECHECKS_MS) left since the last notification; one is due after its pause. */
  let rechecks: number[] = [];
  let recheckDue = false;
  let lastFanOut = 0;
  const inFlight = new Set<Promise<void>>();
  // Woken by the commit of each outbox write, a delivery leaves within milliseconds; the poll
  // stays as the safety net (a lost connection, a retry coming due).
  const unlisten = options.notifications
    ?.listen('events_recorded', {
      onMessage: () => {
        signalled = true;
        rechecks = [...RECHECKS_MS];
        wake?.();
      },
      onState: () => {
        signalled = true;
        wake?.();
      },
    })
    .catch((error: unknown) => {
      deps.log.error({ err: error }, 'webhook worker could not listen for new events; polling only');
      return undefined;
    });

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
        const start = (claimed: ClaimedDelivery) => {
          progressed = true;
          const send: Promise<void> = attemptDelivery(deps, claimed)
            .catch((error: unknown) => deps.log.error({ err: error, deliveryId: claimed.delivery.id }, 'webhook attempt could not be recorded'))
            .finally(() => inFlight.delete(send));
          inFlight.add(send);
        };
        let claimedWithFanOut = false;
        if (signalled || recheckDue || moreToFanOut || performance.now() - lastFanOut >= options.pollMs) {
          signalled = false;
          recheckDue = false;
          lastFanOut = performance.now();
          const { handled, claimed } = await fanOut(deps, FAN_OUT_BATCH, { deps, slots: deps.concurrency - inFlight.size });
          moreToFanOut = handled >= FAN_OUT_BATCH;
          if (handled > 0) progressed = true;
          claimedWithFanOut = claimed.length > 0;
          claimed.forEach(start);
        }
        const free = deps.concurrency - inFlight.size;
        if (free > 0 && !stopped && !claimedWithFanOut) (await claimDeliveries(deps, free)).forEach(start);
      } catch (error) {
        deps.log.error({ err: error }, 'webhook worker pass failed');
      }
      if (stopped) break;
      if ((!progressed && !signalled && !moreToFanOut) || inFlight.size >= deps.concurrency) {
        const recheck = rechecks.shift();
        await pause(recheck ?? options.pollMs);
        recheckDue = recheck !== undefined;
      }
    }
    // Each send settles once its outcome is written.
    await Promise.allSettled([...inFlight]);
    await (await unlisten)?.();
  })();

  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}

/** What a process gives the delivery worker: built once by it (src/deps.ts), which also closes the transport. */
export interface DeliveryInput {
  db: Db;
  notifications?: ServiceContext['notifications'];
  config: Pick<
    Config,
    | 'webhookLeaseSeconds'
    | 'webhookConcurrency'
    | 'webhookSubscriptionConcurrency'
    | 'webhookCompanyConcurrency'
    | 'webhookCircuitFailures'
    | 'webhookCircuitCooldownSeconds'
    | 'webhookPollMs'
  >;
  clock: Clock;
  secrets: SecretBox;
  log: WorkerLog;
  metrics?: DeliveryMetrics;
  transport: WebhookTransport;
}

/** The worker's dependencies from the process's settings. */
export function deliveryDeps(input: DeliveryInput): WorkerDeps {
  return {
    db: input.db,
    clock: input.clock,
    secrets: input.secrets,
    transport: input.transport,
    metrics: input.metrics,
    log: input.log,
    leaseMs: input.config.webhookLeaseSeconds * 1000,
    concurrency: input.config.webhookConcurrency,
    perSubscriptionConcurrency: input.config.webhookSubscriptionConcurrency,
    perCompanyConcurrency: input.config.webhookCompanyConcurrency,
    circuit: { failures: input.config.webhookCircuitFailures, cooldownMs: input.config.webhookCircuitCooldownSeconds * 1000 },
  };
}

/**
 * Starts delivery for a process: the server in the embedded default (PGlite is single-process, so
 * the server is the only worker there) or the `npm run worker` entry.
 */
export function startWebhookWorker(input: DeliveryInput): WebhookWorker {
  const worker = runWebhookWorkerLoop(deliveryDeps(input), { pollMs: input.config.webhookPollMs, notifications: input.notifications });
  input.log.info(
    {
      pollMs: input.config.webhookPollMs,
      concurrency: input.config.webhookConcurrency,
      perSubscriptionConcurrency: input.config.webhookSubscriptionConcurrency,
      perCompanyConcurrency: input.config.webhookCompanyConcurrency,
      circuitFailures: input.config.webhookCircuitFailures,
      circuitCooldownSeconds: input.config.webhookCircuitCooldownSeconds,
    },
    'webhook delivery worker started',
  );
  return {
    async stop() {
      await worker.stop();
    },
  };
}
