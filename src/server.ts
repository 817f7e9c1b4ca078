// Entry: load settings, open and migrate the database, build the app, listen, shut down cleanly.
import { setTimeout as delay } from 'node:timers/promises';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseConnectError } from './db/client.ts';
import { DataDirLockedError } from './db/embedded-lock.ts';
import { buildDeps } from './deps.ts';
import { seedDemoIfEmpty } from './tooling/demo/seed-demo.ts';
import { signInUrl } from './modules/oauth/clients.ts';
import { resealSigningSecrets } from './modules/webhooks/service.ts';
import { startScheduledWork } from './scheduled-work.ts';
import { startMetricsListener } from './http/metrics.ts';

/** After the drain's cut, how long closing (the database included) may still take. */
const CLOSE_AFTER_CUT_MS = 5_000;

async function main(): Promise<void> {
  const config = loadConfig();
  const deps = await buildDeps(config);
  const { ctx } = deps;
  // Signing secrets stored in clear (before encryption at rest existed) are sealed now.
  await resealSigningSecrets(ctx, { onlyClear: true });
  const app = await buildApp(deps);
  const metricsServer =
    config.metricsPort === undefined
      ? undefined
      : await startMetricsListener(deps.metrics, { port: config.metricsPort, host: config.host, token: config.metricsToken });
  // One command gives a complete service: with the embedded database (single-process) the server
  // delivers webhooks and runs the sweeps (kept-count compaction among them) itself; on PostgreSQL
  // run `npm run worker` processes instead, or as well.
  const scheduled = config.webhookWorkerInServer ? startScheduledWork(deps) : undefined;
  app.addHook('onClose', async () => {
    metricsServer?.close();
    await scheduled?.stop();
    await deps.close();
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const drainMs = config.shutdownDrainMs;
    app.log.info({ signal, drainMs }, 'shutting down');
    // Stops accepting connections, lets in-flight requests finish, then closes the database
    // (which releases the embedded data directory's lock).
    const closed = app.close().then(
      () => true,
      (error: unknown) => {
        console.error('Shutdown failed:', error);
        return false;
      },
    );
    let outcome = await Promise.race([closed, delay(drainMs)]);
    if (outcome === undefined) {
      // Requests still running now get an answer (503, retry) rather than a dropped connection.
      const cut = app.cutInFlight();
      app.log.warn({ cut, drainMs }, `drain time over: ${cut} request(s) still running answered 503 and cut off`);
      outcome = await Promise.race([closed, delay(CLOSE_AFTER_CUT_MS)]);
      if (outcome === undefined) {
        // What a cut request still holds (a database connection waiting on a lock) keeps the
        // database from closing: its transaction rolls back when the process ends. A drain that
        // cut requests is the planned end; a close stuck with nothing cut is not.
        console.error(`Closing did not finish ${CLOSE_AFTER_CUT_MS / 1000} s after the drain; exiting anyway.`);
        outcome = cut > 0;
      }
    }
    process.exit(outcome ? 0 : 1);
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
  if (!config.webhookWorkerInServer) {
    // Said plainly: without a worker, events pile up in the outbox and no webhook is sent.
    app.log.warn(
      'Webhook deliveries and scheduled work do not run in this server (WEBHOOK_WORKER_IN_SERVER=false): ' +
        'run `npm run worker` (one or more) beside the servers, or webhooks are never sent.',
    );
  }

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
