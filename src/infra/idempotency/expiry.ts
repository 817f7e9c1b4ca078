// How long an Idempotency-Key's first answer is kept (docs/decisions.md, "Protection"), and the
// sweep that deletes older keys so the table does not only grow. Started by src/scheduled-work.ts.
import type { ServiceContext } from '../../shared/context.ts';
import { startPeriodic, type Periodic } from '../../shared/periodic.ts';
import { deleteIdempotencyKeysBefore } from './repo.ts';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Deletes every key created more than the window ago; answers how many. */
export async function deleteExpiredIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  return deleteIdempotencyKeysBefore(ctx.db, new Date(ctx.clock.now().getTime() - IDEMPOTENCY_WINDOW_MS));
}

export function startIdempotencyKeyExpiry(
  ctx: ServiceContext,
  options: { intervalMs?: number; onDeleted?: (count: number) => void; onError?: (error: unknown) => void } = {},
): Periodic {
  return startPeriodic(() => deleteExpiredIdempotencyKeys(ctx), {
    // Hourly: a key lives at most an hour past its window; the per-key check on use covers the rest.
    intervalMs: options.intervalMs ?? 60 * 60_000,
    onDone: (count) => {
      if (count > 0) options.onDeleted?.(count);
    },
    onError: options.onError,
  });
}
