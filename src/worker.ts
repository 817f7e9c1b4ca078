// Entry: the webhook delivery worker and scheduled work on its own (`npm run worker`), for deployments on PostgreSQL.
// Run as many as you like against one database: they share the work without sending an attempt
// twice. With the embedded database the server runs delivery itself (PGlite is single-process).
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { startDatabase } from './db/start.ts';
import type { WorkerLog } from './modules/webhooks/delivery-worker.ts';
import { startWebhookWorker } from './modules/webhooks/delivery-worker.ts';
import { startJobListingExpiry } from './modules/job-listings/expiry-scheduler.ts';
import { startOidcPurge } from './modules/oauth/purge-scheduler.ts';
import { systemClock } from './shared/clock.ts';
import type { ServiceContext } from './shared/context.ts';
import { loadEncryptionKeys } from './shared/encryption-keys.ts';
import { resealSigningSecrets } from './modules/webhooks/service.ts';

const LEVELS = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity } as const;

/** JSON lines in pino's shape, so server and worker logs read alike. */
function jsonLog(level: Config['logLevel']): WorkerLog {
  const threshold = LEVELS[level];
  const write = (name: 'info' | 'warn' | 'error') => (obj: object, msg?: string) => {
    if (LEVELS[name] < threshold) return;
    const fields = Object.fromEntries(
      Object.entries(obj).map(([key, value]) => [key, value instanceof Error ? { message: value.message, stack: value.stack } : value]),
    );
    process.stdout.write(
      `${JSON.stringify({ level: LEVELS[name], time: Date.now(), pid: process.pid, name: 'webhook-worker', ...fields, msg })}\n`,
    );
  };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const log = jsonLog(config.logLevel);
  const { box: secrets } = loadEncryptionKeys(config);
  const database = await startDatabase(config);
  const ctx: ServiceContext = { db: database.db, clock: systemClock, secrets };
  await resealSigningSecrets(ctx, { onlyClear: true });
  const worker = startWebhookWorker({ database, config, clock: systemClock, secrets, log });
  // Scheduled work: ACTIVE listings past expiresAt are closed (safe in several processes at once).
  const expiry = startJobListingExpiry(
    ctx,
    {
      onClosed: (count) => log.info({ count }, 'closed expired job listings'),
      onError: (error) => log.error({ err: error }, 'expiry sweep failed'),
    },
  );

  // Expired tokens, codes and sessions of the authorization server.
  const oidcPurge = startOidcPurge(
    ctx,
    {
      onPurged: (count) => log.info({ count }, 'purged expired authorization-server rows'),
      onError: (error) => log.error({ err: error }, 'authorization-server purge failed'),
    },
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing the sends in flight');
    // Sends are bounded by their 10 s timeout; past that, exit anyway: leases make it safe.
    const forced = setTimeout(() => process.exit(1), 20_000).unref();
    try {
      await expiry.stop();
      await oidcPurge.stop();
      await worker.stop();
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
