// Everything the worker runs besides HTTP (docs/decisions.md, "Scheduled work"): webhook delivery
// and the sweeps (expired listings closed; old events, deliveries and idempotency keys deleted by
// the retention sweep; expired authorization-server rows purged). Started by
// src/worker.ts, and by src/server.ts when it is its own worker (the embedded database).
import type { Deps } from './deps.ts';
import { startJobListingExpiry } from './modules/job-listings/expiry-scheduler.ts';
import { startWebhookWorker, type WorkerLog } from './modules/webhooks/delivery-worker.ts';
import { startRetention } from './maintenance/retention.ts';
import { startOidcPurge } from './modules/oauth/purge-scheduler.ts';
import { translateDueJobListings } from './modules/job-listings/service.ts';
import { startPeriodic } from './shared/periodic.ts';

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
    metrics: deps.metrics.deliveries,
  });
  const listingExpiry = startJobListingExpiry(ctx, {
    onClosed: (count) => log.info({ count }, 'closed expired job listings'),
    onError: (err) => log.error({ err }, 'expiry sweep failed'),
  });
  // Machine translations a write could not finish (translator down, a language it lacks).
  const listingTranslation = startPeriodic(() => translateDueJobListings(ctx), {
    intervalMs: 60_000,
    onDone: (count) => {
      if (count > 0) log.info({ count }, 'machine-translated job listings');
    },
    onError: (err) => log.error({ err }, 'machine translation sweep failed'),
  });
  const retention = startRetention(ctx, config.retention, {
    onSwept: (deleted) => log.info({ deleted }, 'retention sweep deleted old rows'),
    onError: (err) => log.error({ err }, 'retention sweep failed'),
  });
  // Expired tokens, codes and sessions of the authorization server.
  const oidcPurge = startOidcPurge(ctx, {
    onPurged: (count) => log.info({ count }, 'purged expired authorization-server rows'),
    onError: (err) => log.error({ err }, 'authorization-server purge failed'),
  });
  return {
    async stop() {
      await oidcPurge.stop();
      await retention.stop();
      await listingTranslation.stop();
      await listingExpiry.stop();
      await delivery.stop();
    },
  };
}
