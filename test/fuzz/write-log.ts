// Which rows a request wrote, recorded by the database itself: a trigger on every table appends
// (table, company) to a log, and the fuzzer drains the log after each request. A rolled-back
// transaction takes its log rows with it, so the log holds exactly what was committed. Installed
// only in the fuzzer's own copy of the database.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.ts';

// Written on purpose by requests that fail: the replay record of an Idempotency-Key (a 4xx answer
// is replayed too), and a key's lastUsedAt (kept to the minute on authentication).
const EXCLUDED = new Set(['idempotency_keys', 'api_keys', 'schema_migrations', 'fuzz_writes']);

export interface Write {
  table: string;
  companyId: string | null;
}

export interface WriteLog {
  /** The writes committed since the last drain. */
  drain(): Promise<Write[]>;
}

export async function installWriteLog(database: Database): Promise<WriteLog> {
  const db = database.db;
  await db.execute(sql.raw('create table fuzz_writes (table_name text not null, company_id text)'));
  await db.execute(
    sql.raw(`create function fuzz_log_write() returns trigger language plpgsql as $$
      begin
        insert into fuzz_writes values (tg_table_name, to_jsonb(coalesce(new, old)) ->> 'company_id');
        return null;
      end $$`),
  );
  const tables = await queryRows<{ table_name: string }>(
    db,
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  );
  for (const { table_name: table } of tables) {
    if (EXCLUDED.has(table)) continue;
    const name = `"${table.replaceAll('"', '""')}"`;
    await db.execute(sql.raw(`create trigger fuzz_log after insert or update or delete on ${name} for each row execute function fuzz_log_write()`));
  }
  return {
    async drain() {
      const rows = await queryRows<{ table_name: string; company_id: string | null }>(db, sql`delete from fuzz_writes returning table_name, company_id`);
      return rows.map((row) => ({ table: row.table_name, companyId: row.company_id }));
    },
  };
}
