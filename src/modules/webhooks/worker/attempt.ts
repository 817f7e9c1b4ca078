// One attempt: sign and send a claimed delivery, write its outcome, then log and count it.
import { randomUUID } from 'node:crypto';
import { noDeliveryMetrics } from '../../../shared/metrics.ts';
import type { ClaimedDelivery } from '../repo/claim.ts';
import type { AttemptRow } from '../repo/delivery-log.ts';
import { attemptOutcome } from '../retry-schedule.ts';
import { openSigningSecrets } from '../service.ts';
import { signedHeaders, signingSecrets } from '../signature.ts';
import { attemptError } from '../transport.ts';
import { createOutcomeWriter, type OutcomeWriter, type SentAttempt } from './outcomes.ts';
import type { WorkerDeps } from './worker-deps.ts';

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
 * Sends one claimed delivery and records the attempt and what follows from it, through the
 * worker's outcome writer (a writer of its own when called alone).
 */
export async function attemptDelivery(
  deps: WorkerDeps,
  claimed: ClaimedDelivery,
  outcomes: OutcomeWriter = createOutcomeWriter(deps),
): Promise<void> {
  const sent = await sendClaimed(deps, claimed);
  reportAttempt(deps, sent, await outcomes.write(sent));
}
