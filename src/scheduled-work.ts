// Everything the worker runs besides HTTP (docs/decisions.md, "Scheduled work"): webhook delivery
// and the sweeps below, each a startPeriodic loop (src/shared/periodic.ts). Started by
// src/worker.ts, and by src/server.ts when it is its own worker (the embedded database). Every sweep
// is safe in several processes at once.
import type { Deps } from './deps.ts';
import { COMPACT_EVERY_MS, compactKeptCounts } from './infra/kept-counts/compact.ts';
import { sweepRetention } from './maintenance/retention.ts';
import { extractDueFileTexts, sweepFileDeletions } from './modules/documents/service.ts';
import { closeExpiredJobListings, translateDueJobListings } from './modules/job-listings/service.ts';
import { startWebhookWorker, type WorkerLog } from './modules/webhooks/delivery-worker.ts';
import { startPeriodic, type Periodic } from './shared/periodic.ts';

const MINUTE_MS = 60_000;

export interface ScheduledWork {
  /** Stops the sweeps and delivery, letting the work in flight finish. */
  stop(): Promise<void>;
}

/** A sweep: what it runs, how often, and how many rows a run handled (0: no log line). */
interface Sweep {
  name: string;
  intervalMs: number;
  run(): Promise<Record<string, number>>;
}

const count = async (work: Promise<number>) => ({ count: await work });

/** The sweeps of a process, in the order they start (they stop in the reverse order). */
function sweeps(deps: Deps): Sweep[] {
  const { ctx, config } = deps;
  return [
    // A listing closes within a minute of its expiresAt.
    { name: 'close expired job listings', intervalMs: MINUTE_MS, run: () => count(closeExpiredJobListings(ctx)) },
    // Machine translations a write could not finish (translator down, a language it lacks).
    { name: 'machine-translate job listings', intervalMs: MINUTE_MS, run: () => count(translateDueJobListings(ctx)) },
    // Stored files whose deletion a failure or a crash left undone (deletes, erasures), and objects
    // of uploads whose row never committed (their mark falls due an hour after the upload began).
    { name: 'delete stored files', intervalMs: MINUTE_MS, run: () => count(sweepFileDeletions(ctx)) },
    { name: 'take the text of stored files', intervalMs: MINUTE_MS, run: () => count(extractDueFileTexts(ctx)) },
    // Old events, deliveries and idempotency keys; expired authorization-server rows.
    { name: 'retention', intervalMs: 10 * MINUTE_MS, run: () => sweepRetention(ctx, config.retention) },
    // The kept counts' delta rows, folded so a total sums a handful of rows (never a log line).
    {
      name: 'compact kept counts',
      intervalMs: COMPACT_EVERY_MS,
      run: async () => {
        await compactKeptCounts(ctx.db);
        return {};
      },
    },
  ];
}

export function startScheduledWork(deps: Deps, log: WorkerLog = deps.log): ScheduledWork {
  const { ctx, config } = deps;
  const delivery = startWebhookWorker({
    db: ctx.db,
    notifications: ctx.notifications,
    config,
    clock: ctx.clock,
    secrets: ctx.secrets,
    log,
    transport: deps.webhookTransport,
    metrics: deps.metrics.deliveries,
  });
  const loops: Periodic[] = sweeps(deps).map((sweep) =>
    startPeriodic(sweep.run, {
      intervalMs: sweep.intervalMs,
      onDone: (done) => {
        if (Object.values(done).some((n) => n > 0)) log.info({ sweep: sweep.name, ...done }, `sweep: ${sweep.name}`);
      },
      onError: (err) => log.error({ err, sweep: sweep.name }, `sweep failed: ${sweep.name}`),
    }),
  );
  return {
    async stop() {
      for (const loop of loops.reverse()) await loop.stop();
      await delivery.stop();
    },
  };
}
