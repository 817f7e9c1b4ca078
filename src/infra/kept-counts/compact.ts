// Folds the kept counts' delta rows (migration 0015) every few seconds, so a total sums a handful
// of rows however many changes came since. One of the scheduled sweeps (src/scheduled-work.ts):
// it runs where the scheduled work runs, the worker or the embedded database's server
// (docs/decisions.md, "Scheduled work"). Compactions are safe beside each other and beside writers
// (see compact_kept_counts()), so several workers may run it at once.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export const COMPACT_EVERY_MS = 2_000;

export async function compactKeptCounts(db: Db): Promise<void> {
  await db.execute(sql`select compact_kept_counts()`);
}
