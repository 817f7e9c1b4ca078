// The connection pools of one PostgreSQL database behind the single client Drizzle is given.
// Writes (and every transaction) take the write pool, plain reads the read pool: when writes wait
// on a lock (a migration's ACCESS EXCLUSIVE, a long transaction holding rows) they fill the write
// pool and time out there (503 with Retry-After), while reads that need no locked table go on
// with connections of their own instead of queuing behind them.
import pg from 'pg';
import type { StatementClient, StatementOptions } from './driver.ts';

// Only the start and a few whole words are read, so the test costs little on the hot paths. A
// statement classified wrong runs all the same: only which queue it waits in differs.
const READ_START = /^\s*(?:select|with)\b/i;
// Writing statements, and SELECT ... FOR UPDATE / FOR NO KEY UPDATE / FOR [KEY] SHARE (row locks).
const WRITE_WORD = /\b(?:insert|update|delete|merge|share)\b/i;

export type PoolName = 'writes' | 'reads' | 'planned';

/**
 * The pool a statement run outside a transaction takes: a plain read (it begins with SELECT or
 * WITH, and neither writes nor locks rows) the read pool, or the planned pool if it asks to be
 * planned once (`planOnce`); anything else the write pool. A transaction takes a write connection
 * whatever it runs.
 */
export function poolFor(text: string, options: StatementOptions = {}): PoolName {
  if (!READ_START.test(text) || WRITE_WORD.test(text)) return 'writes';
  return options.planOnce ? 'planned' : 'reads';
}

type QueryArgs = Parameters<pg.Pool['query']>;

/**
 * What Drizzle runs on: `query` goes to the pool poolFor names, `connect` (a transaction, its
 * reads included) takes a write connection. The class name says Pool: that is how Drizzle tells a
 * pool (connect, then release) from a single client.
 */
export class PostgresPools implements StatementClient {
  readonly writes: pg.Pool;
  readonly reads: pg.Pool;
  /**
   * For plain reads run with `planOnce`: sessions that plan a prepared statement once and reuse
   * the plan (plan_cache_mode = force_generic_plan; see src/db/postgres.ts).
   */
  readonly planned: pg.Pool;
  readonly #statementConfig: (text: string, values: unknown[], options: StatementOptions) => pg.QueryConfig | pg.QueryArrayConfig;

  constructor(pools: { writes: pg.Pool; reads: pg.Pool; planned: pg.Pool }, statementConfig: (text: string, values: unknown[], options: StatementOptions) => pg.QueryConfig | pg.QueryArrayConfig) {
    this.writes = pools.writes;
    this.reads = pools.reads;
    this.planned = pools.planned;
    this.#statementConfig = statementConfig;
  }

  query(...args: QueryArgs): ReturnType<pg.Pool['query']> {
    const config = args[0] as string | { text: string };
    const pool = this[poolFor(typeof config === 'string' ? config : config.text)];
    return (pool.query as (...a: QueryArgs) => ReturnType<pg.Pool['query']>)(...args);
  }

  connect(): Promise<pg.PoolClient> {
    return this.writes.connect();
  }

  /**
   * Whether each fixed statement is a plain read, decided once per text: poolFor reads the whole
   * text (a list page's is a thousand characters), and the fixed statements are a few dozen texts.
   */
  readonly #plainReads = new Map<string, boolean>();

  async runStatement(text: string, values: unknown[], options: StatementOptions): Promise<unknown[]> {
    let plainRead = this.#plainReads.get(text);
    if (plainRead === undefined) this.#plainReads.set(text, (plainRead = poolFor(text) === 'reads'));
    const pool = !plainRead ? this.writes : options.planOnce ? this.planned : this.reads;
    return (await pool.query(this.#statementConfig(text, values, options))).rows;
  }

  get all(): pg.Pool[] {
    return [this.writes, this.reads, this.planned];
  }
}

/**
 * A pooled connection that breaks (PostgreSQL ended the session, the network dropped it) emits
 * 'error' on its client, and pg-pool listens for it only while the client is idle: checked out
 * (between the statements of a transaction, or as the session ends just after its query failed) it
 * reached no listener and the process exited. Every client listens here for good, and one checked
 * out is given back at once with its error, so that pg-pool drops it and opens a fresh connection
 * on demand. Its queries have failed already; its holder's own release later does nothing. Given
 * back here even if its holder never would: Drizzle's transaction() does not when its BEGIN fails,
 * and each such connection was lost to the pool for good (a few terminated sessions exhausted it).
 */
export function dropBrokenConnections(pool: pg.Pool): void {
  const checkedOut = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => checkedOut.add(client));
  pool.on('release', (_error, client) => checkedOut.delete(client));
  pool.on('remove', (client) => checkedOut.delete(client as pg.PoolClient));
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      // Idle: pg-pool's own listener removes it.
      if (!checkedOut.has(client)) return;
      checkedOut.delete(client);
      const release = client.release.bind(client);
      client.release = () => {};
      release(error);
    });
  });
}

/**
 * Counts the time callers wait for a pooled connection: pool.query (what Drizzle uses) and
 * transactions both go through pool.connect, so wrapping it on this instance sees every checkout.
 */
export function measureWaits(pool: pg.Pool): { acquired: number; seconds: number } {
  const totals = { acquired: 0, seconds: 0 };
  const connect = pool.connect.bind(pool) as (callback?: (...args: unknown[]) => void) => Promise<pg.PoolClient> | undefined;
  const record = (started: number) => {
    totals.acquired++;
    totals.seconds += (performance.now() - started) / 1000;
  };
  (pool as unknown as { connect: typeof connect }).connect = (callback) => {
    const started = performance.now();
    if (callback) {
      return connect((...args: unknown[]) => {
        if (!args[0]) record(started);
        callback(...args);
      });
    }
    return connect()!.then((client) => {
      record(started);
      return client;
    });
  };
  return totals;
}
