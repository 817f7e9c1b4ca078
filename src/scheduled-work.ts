// Everything the worker runs besides HTTP (docs/decisions.md, "Scheduled work"): webhook delivery
// and the sweeps (expired listings closed, idempotency keys past their window deleted). Started by
// src/worker.ts, and by src/server.ts when it is its own worker (the embedded database).
import type { Deps } from './deps.ts';
import { startJobListingExpiry } from './modules/job-listings/expiry-scheduler.ts';
import { startWebhookWorker, type WorkerLog } from './modules/webhooks/delivery-worker.ts';
import { startIdempotencyKeyExpiry } from './infra/idempotency/expiry.ts';

export interface ScheduledWork {
  /** Stops the sweeps and delivery, letting the work in flight finish. */
  stop(): Promise<void>;
}

export function startScheduledWork(deps: Deps, log: WorkerLog = deps.log): ScheduledWork {
  const { ctx, config } = deps;
  const delivery = startWebhookWorker({
    db: ctx.db,
    config,
    clock: ctx.clock,
    secrets: ctx.secrets,
    log,
    transport: deps.webhookTransport,
  });
  const listingExpiry = startJobListingExpiry(ctx, {
    onClosed: (count) => log.info({ count }, 'closed expired job listings'),
    onError: (err) => log.error({ err }, 'expiry sweep failed'),
  });
  const keyExpiry = startIdempotencyKeyExpiry(ctx, {
    onDeleted: (count) => log.info({ count }, 'deleted expired idempotency keys'),
    onError: (err) => log.error({ err }, 'idempotency key sweep failed'),
  });
  return {
    async stop() {
      await keyExpiry.stop();
      await listingExpiry.stop();
      await delivery.stop();
    },
  };
}
