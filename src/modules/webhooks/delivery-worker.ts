// The delivery worker: fans outbox events out to subscriptions, then sends due deliveries.
// Several workers (processes or servers) may share one PostgreSQL: fan-out locks event rows with
// SKIP LOCKED, sending takes a lease on each delivery, so each attempt has exactly one sender.
// Nothing is sent inside a transaction: the claim commits first, the outcome is written after, so
// a worker killed mid-send leaves a lease that runs out and the delivery is tried again.
//
// Its parts, in worker/: fan-out.ts, claim.ts, attempt.ts (send one), outcomes.ts (write what came
// of it), circuit-breaker.ts (what a failure does to its subscription), loop.ts; worker-deps.ts is
// what it is given. Each worker builds its state (the outcome writer) when it starts.
import { attemptDelivery } from './worker/attempt.ts';
import { claimDeliveries } from './worker/claim.ts';
import { dispatchEventBatch } from './worker/fan-out.ts';
import { runWebhookWorkerLoop, type WebhookWorker } from './worker/loop.ts';
import { createOutcomeWriter } from './worker/outcomes.ts';
import { deliveryDeps, type DeliveryInput, type WorkerDeps } from './worker/worker-deps.ts';

// The worker's face to its entries (src/scheduled-work.ts, the CLI) and to the tests.
export { attemptDelivery, claimDeliveries, deliveryDeps, dispatchEventBatch, runWebhookWorkerLoop };
export type { WorkerDeps };
export type { WorkerLog } from './worker/worker-deps.ts';

/**
 * One full pass (the CLI's `webhooks deliver`, for a deployment without a running worker): fan out
 * every pending event, then send every delivery due now (each once) until none is left.
 */
export async function runWebhookWorkerOnce(deps: WorkerDeps): Promise<{ dispatched: number; attempted: number }> {
  const outcomes = createOutcomeWriter(deps);
  let dispatched = 0;
  for (let n = await dispatchEventBatch(deps); n > 0; n = await dispatchEventBatch(deps)) dispatched += n;
  let attempted = 0;
  for (;;) {
    const claimed = await claimDeliveries(deps, deps.concurrency);
    if (claimed.length === 0) break;
    await Promise.all(claimed.map((c) => attemptDelivery(deps, c, outcomes)));
    attempted += claimed.length;
  }
  return { dispatched, attempted };
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
