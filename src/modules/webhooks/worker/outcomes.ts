// Writing attempts' outcomes, all through the one statement (repo/outcome.ts). Successes, the
// common case at volume, are grouped: the first is written at once and those finishing meanwhile
// gather for the next statement (no added wait, one statement for many deliveries); each delivery
// keeps its own lease and conditional update. A failure is written alone, in a transaction with
// what it does to its subscription (circuit-breaker.ts).
import type { ClaimedDelivery } from '../repo/claim.ts';
import type { AttemptRow } from '../repo/delivery-log.ts';
import { writeAttemptOutcomes, type FinishedAttempt } from '../repo/outcome.ts';
import type { AttemptOutcome } from '../retry-schedule.ts';
import type { SendResult } from '../transport.ts';
import { subscriptionAfterFailure } from './circuit-breaker.ts';
import type { WorkerDeps } from './worker-deps.ts';

/** A claimed delivery, sent: what came back and what it means. */
export interface SentAttempt {
  claimed: ClaimedDelivery;
  attempt: AttemptRow;
  result: SendResult;
  outcome: AttemptOutcome;
  now: Date;
}

export interface OutcomeWriter {
  /** Writes the attempt's outcome; answers false when the lease was lost meanwhile. */
  write(sent: SentAttempt): Promise<boolean>;
}

/** Successes written in one statement at most this many at a time. */
const WRITE_BATCH = 500;
/**
 * Failed attempts written at once, at most. A company's hanging endpoints time out together (their
 * sends were claimed together): a hundred one-attempt transactions at once would queue every other
 * use of the pool, the next claim and other companies' outcomes, behind them.
 */
const FAILURE_WRITERS = 2;

export function nextAttemptAt(sent: SentAttempt): Date | null {
  return sent.outcome.retryInMs === null ? null : new Date(sent.now.getTime() + sent.outcome.retryInMs);
}

function finished(sent: SentAttempt): FinishedAttempt {
  const { delivery } = sent.claimed;
  return {
    attempt: sent.attempt,
    sentPayload: delivery.payload,
    token: delivery.claimToken!,
    status: sent.outcome.status,
    retryStep: sent.outcome.retryStep,
    nextAttemptAt: nextAttemptAt(sent),
    healthy: sent.outcome.subscription === 'healthy',
    now: sent.now,
  };
}

/** Writes one attempt's outcome, and for a failure what follows for its subscription, in one transaction. */
async function writeOne(deps: Pick<WorkerDeps, 'db' | 'log' | 'circuit'>, sent: SentAttempt): Promise<boolean> {
  const { delivery } = sent.claimed;
  if (sent.outcome.subscription === 'healthy') return (await writeAttemptOutcomes(deps.db, [finished(sent)])).has(delivery.id);
  let circuitOpened: { failures: number; until: Date } | undefined;
  const applied = await deps.db.transaction(async (tx) => {
    // Lease lost (this worker stalled past it) or subscription deleted: the new holder decides.
    if (!(await writeAttemptOutcomes(tx, [finished(sent)])).has(delivery.id)) return false;
    circuitOpened = await subscriptionAfterFailure(tx, deps, sent);
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

/**
 * The outcome writer of one worker: its state (the successes gathering for the next statement, the
 * failure writers at work) lives as long as the worker that made it, so the attempts of all its
 * sends are grouped together.
 */
export function createOutcomeWriter(deps: Pick<WorkerDeps, 'db' | 'log' | 'circuit'>): OutcomeWriter {
  let queue: Array<{ sent: SentAttempt; resolve: (applied: boolean) => void; reject: (error: unknown) => void }> = [];
  let running: Promise<void> | undefined;
  const waitingFailures: Array<() => void> = [];
  let failureWriters = 0;

  async function writeFailure(sent: SentAttempt): Promise<boolean> {
    if (failureWriters < FAILURE_WRITERS) failureWriters++;
    // A writer that finishes hands its place to the next waiting one.
    else await new Promise<void>((resolve) => waitingFailures.push(resolve));
    try {
      return await writeOne(deps, sent);
    } finally {
      const next = waitingFailures.shift();
      if (next) next();
      else failureWriters--;
    }
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, WRITE_BATCH);
      queue = queue.slice(WRITE_BATCH);
      let applied: Set<string> | undefined;
      try {
        applied = await writeAttemptOutcomes(
          deps.db,
          batch.map(({ sent }) => finished(sent)),
        );
      } catch {
        // One row can fail the statement (its delivery deleted just now): write them one by one.
      }
      for (const item of batch) {
        if (applied) item.resolve(applied.has(item.sent.claimed.delivery.id));
        else await writeOne(deps, item.sent).then(item.resolve, item.reject);
      }
    }
    running = undefined;
  }

  return {
    write(sent) {
      if (sent.outcome.subscription !== 'healthy') return writeFailure(sent);
      return new Promise((resolve, reject) => {
        queue.push({ sent, resolve, reject });
        running ??= flush();
      });
    },
  };
}
