// Entry: the webhook delivery worker and scheduled work on its own (`npm run worker`), for deployments on PostgreSQL.
// Run as many as you like against one database: they share the work without sending an attempt
// twice. With the embedded database the server runs delivery itself (PGlite is single-process).
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { buildDeps } from './deps.ts';
import { startWebhookWorker } from './modules/webhooks/delivery-worker.ts';
import { startJobListingExpiry } from './modules/job-listings/expiry-scheduler.ts';
import { resealSigningSecrets } from './modules/webhooks/service.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await buildDeps(config);
  // JSON lines from pino, as the server writes them, named so the two read apart.
  const log = deps.log.child({ name: 'webhook-worker' });
  const { ctx } = deps;
  await resealSigningSecrets(ctx, { onlyClear: true });
  const worker = startWebhookWorker({ db: ctx.db, config, clock: ctx.clock, secrets: ctx.secrets, log, transport: deps.webhookTransport });
  // Scheduled work: ACTIVE listings past expiresAt are closed (safe in several processes at once).
  const expiry = startJobListingExpiry(ctx, {
    onClosed: (count) => log.info({ count }, 'closed expired job listings'),
    onError: (error) => log.error({ err: error }, 'expiry sweep failed'),
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
      await worker.stop();
      await deps.close();
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
