// The scheduled work that closes expired listings: a small loop for src/worker.ts (and the
// server's in-process worker) to start. Runs once at start, then every `intervalMs`; never two
// sweeps at once in one process, and several processes may sweep concurrently (rows are claimed
// with SKIP LOCKED), so running it in every worker is safe.
import type { ServiceContext } from '../../shared/context.ts';
import { closeExpiredJobListings } from './service.ts';

export interface ExpirySchedulerOptions {
  /** Time between sweeps; default one minute (so a listing closes within a minute of expiresAt). */
  intervalMs?: number;
  /** Told about each sweep that closed listings (for a log line). */
  onClosed?: (count: number) => void;
  /** Told about a failed sweep; the loop carries on with the next one. */
  onError?: (error: unknown) => void;
}

export interface ExpiryScheduler {
  /** Waits for a running sweep to end; no sweep starts afterwards. */
  stop(): Promise<void>;
}

export function startJobListingExpiry(ctx: ServiceContext, options: ExpirySchedulerOptions = {}): ExpiryScheduler {
  const intervalMs = options.intervalMs ?? 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const sweep = async () => {
    try {
      const count = await closeExpiredJobListings(ctx);
      if (count > 0) options.onClosed?.(count);
    } catch (error) {
      options.onError?.(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(schedule);
    }, intervalMs);
  };
  running = sweep().finally(schedule);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
