// The scheduled work that closes expired listings (docs/decisions.md, "Scheduled work"): started by
// src/scheduled-work.ts in the worker and the server's in-process worker. Several processes may
// sweep at once (rows are claimed with SKIP LOCKED).
import type { ServiceContext } from '../../shared/context.ts';
import { startPeriodic, type Periodic } from '../../shared/periodic.ts';
import { closeExpiredJobListings } from './moves.ts';

export interface ExpirySchedulerOptions {
  /** Time between sweeps; default one minute (so a listing closes within a minute of expiresAt). */
  intervalMs?: number;
  /** Told about each sweep that closed listings (for a log line). */
  onClosed?: (count: number) => void;
  /** Told about a failed sweep; the loop carries on with the next one. */
  onError?: (error: unknown) => void;
}

export function startJobListingExpiry(ctx: ServiceContext, options: ExpirySchedulerOptions = {}): Periodic {
  return startPeriodic(() => closeExpiredJobListings(ctx), {
    intervalMs: options.intervalMs ?? 60_000,
    onDone: (count) => {
      if (count > 0) options.onClosed?.(count);
    },
    onError: options.onError,
  });
}
