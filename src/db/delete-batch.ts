// The one shape of a retention delete (src/maintenance/retention.ts): at most `limit` rows, oldest
// first, in one short statement. SKIP LOCKED lets several workers sweep at once without waiting on
// each other or on a request holding a row.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from './client.ts';

export interface BatchDelete {
  /** The table's name. */
  table: string;
  /** The columns that identify a row (its primary key). */
  key: readonly string[];
  /** Which rows may go. */
  where: SQL;
  /** The column that says how old a row is (oldest go first). */
  age: string;
  limit: number;
}

/** Deletes one batch; returns how many rows went. */
export async function deleteBatch(db: Db, batch: BatchDelete): Promise<number> {
  const key = sql.join(batch.key.map((column) => sql.identifier(column)), sql`, `);
  const table = sql.identifier(batch.table);
  const rows = await queryRows<{ n: number }>(
    db,
    sql`
      DELETE FROM ${table} WHERE (${key}) IN (
        SELECT ${key} FROM ${table}
        WHERE ${batch.where}
        ORDER BY ${sql.identifier(batch.age)}
        LIMIT ${batch.limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING 1 AS n`,
  );
  return rows.length;
}
