// A cheap fingerprint of what the API can change, read in one query: for every table (whole
// database), and for another company's rows (tables with a company_id), the row count and the
// newest row version.
// Compared before and after a request, it tells whether the request wrote anything, and where.
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from '../../src/db/client.ts';

// Written on purpose by requests that fail: the replay record of an Idempotency-Key (a 4xx answer
// is replayed too), and a key's lastUsedAt (kept to the minute on authentication). Reference data
// and migration bookkeeping never change through the API.
const EXCLUDED = new Set(['idempotency_keys', 'api_keys', 'sectors', 'tags']);

export interface Fingerprint {
  all: Record<string, string>;
  company: Record<string, string>;
}

export interface Fingerprinter {
  read(): Promise<Fingerprint>;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function fingerprinter(database: Database, companyId: string): Promise<Fingerprinter> {
  const columns = await queryRows<{ table_name: string; has_company: boolean }>(
    database.db,
    sql`select t.table_name,
               exists (select 1 from information_schema.columns c
                        where c.table_schema = t.table_schema and c.table_name = t.table_name and c.column_name = 'company_id') as has_company
          from information_schema.tables t
         where t.table_schema = 'public' and t.table_type = 'BASE TABLE'
         order by t.table_name`,
  );
  const tables = columns.filter((row) => !EXCLUDED.has(row.table_name) && !row.table_name.startsWith('__') && !row.table_name.includes('migration'));
  // Rows and the newest row version (xmin: the transaction that wrote it): an insert or delete
  // changes the count, an update gives its row a newer xmin. Much cheaper than hashing row text.
  const hash = (table: string, where: string) =>
    `(select count(*) || ':' || coalesce(max(r.xmin::text::bigint), 0) from ${quote(table)} r ${where})`;
  const parts = tables.flatMap((row) => {
    const all = `${hash(row.table_name, '')} as ${quote(`all:${row.table_name}`)}`;
    if (!row.has_company) return [all];
    // The company id is a uuid made by the test itself: safe to inline.
    return [all, `${hash(row.table_name, `where r.company_id = '${companyId}'`)} as ${quote(`company:${row.table_name}`)}`];
  });
  const query = sql.raw(`select ${parts.join(', ')}`);
  return {
    async read() {
      const [row] = await queryRows<Record<string, string>>(database.db, query);
      const result: Fingerprint = { all: {}, company: {} };
      for (const [key, value] of Object.entries(row)) {
        const [scope, table] = key.split(':');
        (scope === 'all' ? result.all : result.company)[table] = value;
      }
      return result;
    },
  };
}

/** Tables whose fingerprint differs. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((table) => before[table] !== after[table]);
}
