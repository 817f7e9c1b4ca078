// Folds the kept counts' delta rows (migration 0015) every few seconds, so a total sums a handful
// of rows however many changes came since. Runs in the server and in every worker: compactions
// are safe beside each other and beside writers (see compact_kept_counts()).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export const COMPACT_EVERY_MS = 2_000;

export async function compactKeptCounts(db: Db): Promise<void> {
  await db.execute(sql`select compact_kept_counts()`);
}

export interface Compaction {
  stop(): Promise<void>;
}

export function startKeptCountsCompaction(db: Db, onError: (err: unknown) => void, everyMs = COMPACT_EVERY_MS): Compaction {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = compactKeptCounts(db)
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
