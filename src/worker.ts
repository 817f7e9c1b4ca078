// Entry: the webhook delivery worker and scheduled work on its own (`npm run worker`), for deployments on PostgreSQL.
// Run as many as you like against one database: they share the work without sending an attempt
// twice. With the embedded database the server runs delivery itself (PGlite is single-process).
import { ConfigError, loadConfig } from './config.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { buildDeps } from './deps.ts';
import { resealSigningSecrets } from './modules/webhooks/service.ts';
import { startScheduledWork } from './scheduled-work.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await buildDeps(config);
  // JSON lines from pino, as the server writes them, named so the two read apart.
  const log = deps.log.child({ name: 'webhook-worker' });
  const { ctx } = deps;
  await resealSigningSecrets(ctx, { onlyClear: true });
  // Delivery and the sweeps; safe to run in several processes at once.
  const work = startScheduledWork(deps, log);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping: finishing the sends in flight');
    // Sends are bounded by their 10 s timeout; past that, exit anyway: leases make it safe.
    const forced = setTimeout(() => process.exit(1), 20_000).unref();
    try {
      await work.stop();
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
