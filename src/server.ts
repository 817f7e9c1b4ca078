// Entry: load settings, open and migrate the database, build the app, listen, shut down cleanly.
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseConnectError } from './db/client.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { startDatabase } from './db/start.ts';
import { seedDemoIfEmpty } from './modules/demo/seed-demo.ts';
import { startWebhookWorker } from './modules/webhooks/delivery-worker.ts';
import { startJobListingExpiry } from './modules/job-listings/expiry-scheduler.ts';
import { startOidcPurge } from './modules/oauth/purge-scheduler.ts';
import { systemClock } from './shared/clock.ts';
import { signInUrl } from './modules/oauth/clients.ts';
import { loadEncryptionKeys } from './shared/encryption-keys.ts';
import { resealSigningSecrets } from './modules/webhooks/service.ts';
import type { ServiceContext } from './shared/context.ts';
import { buildSocialConnectors } from './modules/social/connectors.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const { box: secrets } = loadEncryptionKeys(config);
  const database = await startDatabase(config);
  const clock = systemClock;
  const ctx: ServiceContext = { db: database.db, clock, secrets };
  // Signing secrets stored in clear (before encryption at rest existed) are sealed now.
  await resealSigningSecrets(ctx, { onlyClear: true });
  // Outside clients are built once, here, and shared by every request.
  const socialConnectors = buildSocialConnectors(config.social);
  const app = await buildApp({ config, database, clock, secrets, socialConnectors });
  // One command gives a complete service: with the embedded database (single-process) the server
  // delivers webhooks itself; on PostgreSQL run `npm run worker` processes instead, or as well.
  const webhookWorker = config.webhookWorkerInServer
    ? startWebhookWorker({ database, config, clock, secrets, log: app.log })
    : undefined;
  // The scheduled work (closing expired listings) runs with the in-process worker too.
  const expiry = config.webhookWorkerInServer
    ? startJobListingExpiry(
        ctx,
        {
          onClosed: (count) => app.log.info({ count }, 'closed expired job listings'),
          onError: (err) => app.log.error({ err }, 'expiry sweep failed'),
        },
      )
    : undefined;
  const oidcPurge = config.webhookWorkerInServer
    ? startOidcPurge(
        ctx,
        {
          onPurged: (count) => app.log.info({ count }, 'purged expired authorization-server rows'),
          onError: (err) => app.log.error({ err }, 'authorization-server purge failed'),
        },
      )
    : undefined;
  app.addHook('onClose', async () => {
    await expiry?.stop();
    await oidcPurge?.stop();
    await webhookWorker?.stop();
    await database.close();
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stops accepting connections, lets in-flight requests finish, then closes the database
    // (which releases the embedded data directory's lock).
    const forced = setTimeout(() => {
      console.error('Shutdown took longer than 10 s; exiting anyway.');
      process.exit(1);
    }, 10_000).unref();
    try {
      await app.close();
      process.exitCode = 0;
    } catch (error) {
      console.error('Shutdown failed:', error);
      process.exitCode = 1;
    } finally {
      clearTimeout(forced);
      process.exit();
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close(); // releases the database (and the embedded lock) before exiting
    throw error;
  }
  app.log.info(`API reference at ${config.baseUrl}/docs`);
  app.log.info(`Sign-in at ${signInUrl(config.baseUrl)}`);

  // After listen, so the key is printed only when the server really serves: a start that fails
  // (say, on a busy port) must not use up the one-time key.
  if (config.seedDemo) {
    const demo = await seedDemoIfEmpty(ctx);
    if (demo) {
      // Printed once, on the first start: the key is not stored and cannot be shown again.
      console.log(
        [
          '',
          `Created demo company "${demo.company.name}" (${demo.company.id}) and an API key with every scope.`,
          'Keep this key: it is shown only this once.',
          '',
          `  API key: ${demo.apiKey.rawKey}`,
          '',
          'Try it:',
          `  curl -H 'X-API-Key: ${demo.apiKey.rawKey}' ${config.baseUrl}/public/v1/enums`,
          '',
          `Sign in (the dashboard's sign-in${config.devSignIn ? ', development e-mail sign-in on' : ''}):`,
          `  ${signInUrl(config.baseUrl)}`,
          '',
        ].join('\n'),
      );
    }
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof DatabaseConnectError) {
    console.error(`Cannot start: ${error.message}`);
  } else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Cannot start: ${(error as Error).message}. Another program uses that port: set PORT to a free one.`);
  } else {
    console.error('Cannot start:', error);
  }
  process.exit(1);
});
