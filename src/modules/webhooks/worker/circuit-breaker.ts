// What a failed attempt does to its subscription, in the transaction of its outcome: a 410 disables
// it; any other failure counts in its run of failures, may open its circuit, and disables it once
// it has failed for long enough (decisions.md, "Webhook receivers that hang").
import type { Db } from '../../../db/client.ts';
import { disableSubscription, markSubscriptionFailing } from '../repo/circuit-breaker.ts';
import { failedLongEnoughToDisable } from '../retry-schedule.ts';
import type { SentAttempt } from './outcomes.ts';
import { DEFAULT_CIRCUIT, type WorkerDeps } from './worker-deps.ts';

/** Applies a failure to its subscription; answers the circuit when this failure opened it. */
export async function subscriptionAfterFailure(
  tx: Db,
  deps: Pick<WorkerDeps, 'circuit'>,
  sent: SentAttempt,
): Promise<{ failures: number; until: Date } | undefined> {
  const { subscriptionId } = sent.claimed.delivery;
  const { now } = sent;
  if (sent.outcome.subscription === 'gone') {
    await disableSubscription(tx, subscriptionId, 'ENDPOINT_GONE', now);
    return undefined;
  }
  const circuit = deps.circuit ?? DEFAULT_CIRCUIT;
  const failing = await markSubscriptionFailing(tx, subscriptionId, now, {
    failures: circuit.failures,
    openUntil: new Date(now.getTime() + circuit.cooldownMs),
    attemptedAt: sent.attempt.attemptedAt,
  });
  const subscription = failing?.row;
  if (subscription?.active && subscription.failingSince && failedLongEnoughToDisable(subscription.failingSince, now)) {
    await disableSubscription(tx, subscriptionId, 'FAILING', now);
  }
  return failing?.opened && subscription?.circuitOpenUntil
    ? { failures: subscription.consecutiveFailures, until: subscription.circuitOpenUntil }
    : undefined;
}
