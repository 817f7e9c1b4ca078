// Entry: the webhook delivery worker and scheduled work on its own (`npm run worker`), for deployments on PostgreSQL.
// Run as many as you like against one database: they share the work without sending an attempt
// twice. With the embedded database the server runs delivery itself (PGlite is single-process).
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { startDatabase } from './db/start.ts';
import { startWebhookWorker } from './modules/webhooks/delivery-worker.ts';
import { startJobListingExpiry } from './modules/job-listings/expiry-scheduler.ts';
import { systemClock } from './shared/clock.ts';
import type { ServiceContext } from './shared/context.ts';
import { loadEncryptionKeys } from './shared/encryption-keys.ts';
import { resealSigningSecrets, webhookBacklog } from './modules/webhooks/service.ts';
import { createLogger } from './shared/logger.ts';
import { createMetrics } from './shared/metrics.ts';
import { startMetricsListener } from './http/metrics.ts';
import { startRetention } from './maintenance/retention.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const log = createLogger(config, 'webhook-worker');
  const { box: secrets } = loadEncryptionKeys(config);
  const database = await startDatabase(config);
  const ctx: ServiceContext = { db: database.db, clock: systemClock, secrets };
  await resealSigningSecrets(ctx, { onlyClear: true });
  const metrics = createMetrics({ process: 'worker' });
  metrics.setSources({ pool: database.poolStats, backlog: () => webhookBacklog(ctx) });
  const metricsServer =
    config.workerMetricsPort === undefined
      ? undefined
      : await startMetricsListener(metrics, { port: config.workerMetricsPort, host: config.host, token: config.metricsToken });
  if (metricsServer) log.info({ port: config.workerMetricsPort }, 'worker metrics at /metrics');
  const worker = startWebhookWorker({ database, config, clock: systemClock, secrets, log, metrics: metrics.deliveries });
  // Scheduled work: ACTIVE listings past expiresAt are closed (safe in several processes at once).
  const expiry = startJobListingExpiry(
    ctx,
    {
      onClosed: (count) => log.info({ count }, 'closed expired job listings'),
      onError: (error) => log.error({ err: error }, 'expiry sweep failed'),
    },
  );

  const retention = startRetention(ctx, config.retention, {
    onSwept: (deleted) => log.info({ deleted }, 'retention sweep deleted old rows'),
    onError: (error) => log.error({ err: error }, 'retention sweep failed'),
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing the sends in flight');
    // Sends are bounded by their 10 s timeout; past that, exit anyway: leases make it safe.
    const forced = setTimeout(() => process.exit(1), 20_000).unref();
    try {
      await expiry.stop();
      await retention.stop();
      await worker.stop();
      metricsServer?.close();
      await database.close();
    } finally {
      clearTimeout(forced);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof DataDirLockedError) {
    console.error(
      `Cannot start: ${error.message}\nWith the embedded database the server delivers webhooks itself; a separate worker needs DATABASE_URL.`,
    );
  } else if (error instanceof ConfigError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
