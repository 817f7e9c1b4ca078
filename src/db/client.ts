// One database handle for both engines: PGlite (embedded, in ./data) when DATABASE_URL is unset,
// PostgreSQL otherwise. Everything above this file sees only Drizzle and SQL.
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import { lockDataDir } from './embedded-lock.ts';

/** A Drizzle database or transaction: repos accept either. */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Runs a raw SQL query (for what the query builder does not express) and returns its rows. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The PostgreSQL server of DATABASE_URL is unreachable or refuses the connection. */
export class DatabaseConnectError extends Error {
  override name = 'DatabaseConnectError';
}

export interface Database {
  readonly kind: 'embedded' | 'postgres';
  readonly db: Db;
  /** Runs a multi-statement SQL script on one connection (migrations). */
  execScript(script: string): Promise<void>;
  /** Answers when the database answers; used by /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Embedded only: the whole data directory as a tarball (tests start each file from one). */
  dumpDataDir?(): Promise<Blob>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; undefined with no databaseUrl means in memory. */
  dataDir?: string | undefined;
  /** A dumped embedded data directory to start from (tests clone a migrated template). */
  loadDataDir?: Blob | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PostgreSQL only; 0 means none. */
  timeouts?: DatabaseTimeouts;
}

export interface DatabaseTimeouts {
  /** Longest one statement may run (statement_timeout), locks waited for included. */
  statementMs: number;
  /** A session idle inside an open transaction is ended after this (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
  /** Longest wait for a free pooled connection (pg's connectionTimeoutMillis). */
  poolWaitMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 30_000, idleInTransactionMs: 60_000, poolWaitMs: 5_000 };

/**
 * The database cannot take the request now (no free connection in time, or a statement ran past
 * statement_timeout, typically waiting for a lock): a 503 with Retry-After, not a 500.
 */
export class DatabaseBusyError extends Error {
  override name = 'DatabaseBusyError';
}

/** Whether an error (or one of its causes: Drizzle wraps driver errors) says the database is busy. */
export function isDatabaseBusy(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof DatabaseBusyError) return true;
    if ((e as { code?: unknown }).code === '57014') return true; // query_canceled: statement_timeout
    if (e.message === 'timeout exceeded when trying to connect') return true; // pg-pool wait
  }
  return false;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS);
  }
  return openEmbedded(options.dataDir, options.loadDataDir);
}

async function openEmbedded(dataDir: string | undefined, loadDataDir: Blob | undefined): Promise<Database> {
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let client: PGlite;
  try {
    client = await PGlite.create(dataDir ? `file://${dataDir}` : undefined, loadDataDir ? { loadDataDir } : {});
  } catch (error) {
    unlock();
    throw error;
  }
  return {
    kind: 'embedded',
    db: drizzlePglite(client) as unknown as Db,
    async execScript(script) {
      try {
        await client.exec(script);
      } catch (error) {
        // A failed script may leave its transaction open on the only connection.
        await client.exec('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    async ping() {
      await client.query('select 1');
    },
    async dumpDataDir() {
      return client.dumpDataDir('none');
    },
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        unlock();
      }
    },
  };
}

async function openPostgres(databaseUrl: string, poolSize: number, timeouts: DatabaseTimeouts): Promise<Database> {
  // Without these one locked table once held every pooled connection and every request waited
  // for it (11.8 s for /enums): now a statement gives up, and a request that cannot get a
  // connection in time is answered 503.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: timeouts.poolWaitMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Fail fast on a wrong URL rather than at the first request.
  try {
    (await pool.connect()).release();
  } catch (error) {
    await pool.end().catch(() => {});
    const url = new URL(databaseUrl); // named without its credentials
    throw new DatabaseConnectError(
      `Cannot connect to PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname} (DATABASE_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
  return {
    kind: 'postgres',
    db: drizzlePg(pool) as unknown as Db,
    async execScript(script) {
      const client = await pool.connect();
      try {
        // Migrations may rightly take longer than any request.
        await client.query('SET statement_timeout = 0');
        await client.query(script);
      } catch (error) {
        // Never hand a connection with an aborted transaction back to the pool.
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        await client.query(`SET statement_timeout = ${Number(timeouts.statementMs)}`).catch(() => {});
        client.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      // Closing twice is harmless, as for the embedded database (pg's end() throws the second time).
      if (!pool.ended) await pool.end();
    },
  };
}
