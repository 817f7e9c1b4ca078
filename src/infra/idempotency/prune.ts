// Retention of idempotency keys: a key only matters during its replay window (24 hours), so the
// worker deletes older ones in bounded batches instead of letting the table grow.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deleteBatch } from '../../db/delete-batch.ts';

/** Deletes up to `limit` idempotency keys created before `before`; returns how many. */
export async function pruneIdempotencyKeys(db: Db, before: Date, limit: number): Promise<number> {
  return deleteBatch(db, {
    table: 'idempotency_keys',
    key: ['company_id', 'idempotency_key'],
    where: sql`created_at < ${before.toISOString()}::timestamptz`,
    age: 'created_at',
    limit,
  });
}
