// Running SQL text that Drizzle's query builder does not build: raw queries (queryRows) and the
// fixed statements of the hot paths (queryStatement).
import type { SQL } from 'drizzle-orm';
import { isStatementClient, type Db, type StatementClient, type StatementOptions } from './driver.ts';

/** Runs a raw SQL query (for what the query builder does not express) and returns its rows. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Runs one fixed SQL text with `$1...` parameters, bypassing Drizzle's query builder: for the hot
 * paths (list pages, status moves, the single listing), where building the query cost more than
 * running it. On PostgreSQL a named prepared statement (parsed and planned once per connection,
 * then only bound and run); embedded, a parameterized query. Values as src/db/values.ts reads them
 * on both engines (timestamptz a Date, int4 a number, jsonb parsed, int8 and numeric their text).
 * Outside a transaction it takes a pooled connection (src/db/postgres-pools.ts says which pool);
 * inside one it runs on the transaction's connection.
 */
export async function queryStatement<T>(db: Db, text: string, values: unknown[], options: StatementOptions = {}): Promise<T[]> {
  return (await statementClientOf(db).runStatement(text, values, options)) as T[];
}

/**
 * The engine's client behind a Drizzle handle: the database's own (Drizzle's `$client`) or, for a
 * transaction, its connection, which Drizzle keeps on the transaction's session (the one field of
 * Drizzle's read here that its types do not show).
 */
function statementClientOf(db: Db): StatementClient {
  const client = (db as { $client?: unknown }).$client ?? (db._.session as unknown as { client?: unknown }).client;
  if (!isStatementClient(client)) throw new Error('queryStatement: not a database handle of this app');
  return client;
}
