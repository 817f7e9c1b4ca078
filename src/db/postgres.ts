// The PostgreSQL engine (DATABASE_URL): the request pools (src/db/postgres-pools.ts), readiness's
// own connection, LISTEN's (src/db/notifications.ts), and the fixed statements' prepared
// statements.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database, Db, StatementClient, StatementOptions } from './driver.ts';
import { DatabaseConnectError } from './errors.ts';
import { PostgresNotifications } from './notifications.ts';
import { dropBrokenConnections, measureWaits, PostgresPools } from './postgres-pools.ts';
import { VALUE_PARSERS } from './values.ts';

export interface DatabaseTimeouts {
  /** Longest one statement may run (statement_timeout), locks waited for included. */
  statementMs: number;
  /** A session idle inside an open transaction is ended after this (idle_in_transaction_session_timeout). */
  idleInTransactionMs: number;
  /** Longest wait for a free pooled connection (pg's connectionTimeoutMillis). */
  poolWaitMs: number;
}

export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { statementMs: 30_000, idleInTransactionMs: 60_000, poolWaitMs: 5_000 };

/** Longest wait for readiness's own connection and its `select 1`. */
const READY_TIMEOUT_MS = 2_000;

/** pg's parsers for the fixed statements' answers: the table both engines share. */
const STATEMENT_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    (format !== 'binary' && VALUE_PARSERS[oid]) || pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The fixed statements this database has run, each named once: a name is a prepared statement on
 * each connection that runs it (parsed and planned there once, then only bound and run).
 */
class PreparedStatements {
  readonly #names = new Map<string, string>();

  config(text: string, values: unknown[], options: StatementOptions): pg.QueryConfig | pg.QueryArrayConfig {
    let name = this.#names.get(text);
    if (name === undefined) this.#names.set(text, (name = `s${this.#names.size}`));
    if (options.arrays) return { name, text, values, types: STATEMENT_TYPES, rowMode: 'array' };
    return { name, text, values, types: STATEMENT_TYPES };
  }
}

/** The pools' connections: pg's client, and a transaction's connection runs fixed statements too. */
function connectionClass(statements: PreparedStatements): typeof pg.Client {
  return class Connection extends pg.Client implements StatementClient {
    async runStatement(text: string, values: unknown[], options: StatementOptions): Promise<unknown[]> {
      return (await this.query(statements.config(text, values, options))).rows;
    }
  };
}

export async function openPostgres(databaseUrl: string, poolSize: number, timeouts: DatabaseTimeouts): Promise<Database> {
  const statements = new PreparedStatements();
  // Without these one locked table once held every pooled connection and every request waited
  // for it (11.8 s for /enums): now a statement gives up, and a request that cannot get a
  // connection in time is answered 503.
  const poolConfig: pg.PoolConfig = {
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: timeouts.poolWaitMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    Client: connectionClass(statements),
  };
  const writes = new pg.Pool(poolConfig);
  const reads = new pg.Pool(poolConfig);
  // For statements run with `planOnce`: its sessions plan a prepared statement once and reuse that
  // plan (plan_cache_mode = force_generic_plan). By default PostgreSQL plans a list page's
  // statement anew on every execution (its LIMIT and OFFSET parameters make the generic plan look
  // costlier than it is), and that planning was half the database's time on a page. Only
  // statements whose plan never depends on their values may ask for it: a deep page's or a
  // search's best plan does (generic, a deep page took 150 ms), and they keep PostgreSQL's choice
  // on the read pool. Connects only when a planOnce statement first needs it; set on each session
  // before its first use.
  const planned = new pg.Pool({
    ...poolConfig,
    // JIT off as well: a plan made without knowing the page's limit estimates a fraction of the
    // company's rows (a limit parameter counts as 10% of them), which passes jit_above_cost, and
    // PostgreSQL then compiled the plan again on every execution (7 ms for a 0.2 ms page).
    onConnect: async (client) => void (await client.query('SET plan_cache_mode = force_generic_plan; SET jit = off')),
  });
  const pools = new PostgresPools({ writes, reads, planned }, (text, values, options) => statements.config(text, values, options));
  // Readiness asks on a connection of its own, kept open, with a short timeout: a full pool or a
  // lock must not make a database that answers look down (and take every server out of rotation).
  const ready = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: READY_TIMEOUT_MS,
    statement_timeout: READY_TIMEOUT_MS,
  });
  const every = [...pools.all, ready];
  for (const pool of every) {
    // An idle client losing its connection must not crash the process; the next query reconnects.
    pool.on('error', () => {});
    dropBrokenConnections(pool);
  }
  const waits = pools.all.map(measureWaits);
  // Fail fast on a wrong URL rather than at the first request.
  try {
    (await writes.connect()).release();
  } catch (error) {
    for (const pool of every) await pool.end().catch(() => {});
    const url = new URL(databaseUrl); // named without its credentials
    throw new DatabaseConnectError(
      `Cannot connect to PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname} (DATABASE_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const notifications = new PostgresNotifications(databaseUrl);
  return {
    kind: 'postgres',
    db: drizzle(pools as unknown as pg.Pool) as unknown as Db,
    async execScript(script) {
      const client = await writes.connect();
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
      await ready.query('select 1');
    },
    listen: (channel, listener) => notifications.listen(channel, listener),
    // The request pools together (poolSize each at most); readiness's own connection aside.
    poolStats: () => {
      const sum = (pick: (pool: pg.Pool) => number) => pools.all.reduce((total, one) => total + pick(one), 0);
      return {
        max: pools.all.length * poolSize,
        total: sum((one) => one.totalCount),
        idle: sum((one) => one.idleCount),
        waiting: sum((one) => one.waitingCount),
        acquired: waits.reduce((total, one) => total + one.acquired, 0),
        waitSeconds: waits.reduce((total, one) => total + one.seconds, 0),
      };
    },
    async close() {
      await notifications.close();
      // Closing twice is harmless, as for the embedded database (pg's end() throws the second time).
      for (const pool of every) if (!pool.ended) await pool.end();
    },
  };
}
