// Entry: the webhook delivery worker and scheduled work on its own (`npm run worker`), for deployments on PostgreSQL.
// Run as many as you like against one database: they share the work without sending an attempt
// twice. With the embedded database the server runs delivery itself (PGlite is single-process).
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { buildDeps } from './deps.ts';
import { startMetricsListener } from './http/metrics.ts';
import { resealSigningSecrets, webhookBacklog } from './modules/webhooks/service.ts';
import { startScheduledWork } from './scheduled-work.ts';
import { createLogger } from './shared/logger.ts';
import { createMetrics } from './shared/metrics.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  // The same pino setup as the server's, named so the two read apart.
  const deps = await buildDeps(config, {
    log: createLogger(config, 'webhook-worker'),
    metrics: createMetrics({ process: 'worker' }),
  });
  const { ctx, log, metrics } = deps;
  await resealSigningSecrets(ctx, { onlyClear: true });
  metrics.setSources({ pool: deps.database.poolStats, backlog: () => webhookBacklog(ctx) });
  const metricsServer =
    config.workerMetricsPort === undefined
      ? undefined
      : await startMetricsListener(metrics, { port: config.workerMetricsPort, host: config.host, token: config.metricsToken });
  if (metricsServer) log.info({ port: config.workerMetricsPort }, 'worker metrics at /metrics');
  // Signal handlers first: a SIGTERM that arrives once work has started (and said so in the log)
  // must find them installed, or the default action kills the process mid-send.
  let stopping = false;
  const running: { work?: { stop(): Promise<void> } } = {};
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing the sends in flight');
    // Sends are bounded by their 10 s timeout; past that, exit anyway: leases make it safe.
    const forced = setTimeout(() => process.exit(1), 20_000).unref();
    try {
      await running.work?.stop();
      metricsServer?.close();
      await deps.close();
    } finally {
      clearTimeout(forced);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // Delivery and the sweeps (retention and kept-count compaction included); safe to run in several
  // processes at once.
  running.work = startScheduledWork(deps, log);
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
