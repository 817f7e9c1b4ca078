// Retention of idempotency keys: a key only matters during its replay window (24 hours), so the
// worker deletes older ones in bounded batches instead of letting the table grow.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

/** Deletes up to `limit` idempotency keys created before `before`; returns how many. */
export async function pruneIdempotencyKeys(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await queryRows<{ company_id: string }>(
    db,
    sql`
      DELETE FROM idempotency_keys WHERE (company_id, idempotency_key) IN (
        SELECT company_id, idempotency_key FROM idempotency_keys
        WHERE created_at < ${before.toISOString()}::timestamptz
        ORDER BY created_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING company_id`,
  );
  return rows.length;
}
