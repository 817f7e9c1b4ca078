// The connection pools of one PostgreSQL database behind the single handle Drizzle is given.
// Writes (and every transaction) take the write pool, plain reads the read pool: when writes wait
// on a lock (a migration's ACCESS EXCLUSIVE, a long transaction holding rows) they fill the write
// pool and time out there (503 with Retry-After), while reads that need no locked table go on
// with connections of their own instead of queuing behind them.
import pg from 'pg';

// Only the start and a few whole words are read, so the test costs little on the hot paths (and a
// fixed statement's answer is kept with it). A statement classified wrong runs all the same: only
// which queue it waits in differs.
const READ_START = /^\s*(?:select|with)\b/i;
// Writing statements, and SELECT ... FOR UPDATE / FOR NO KEY UPDATE / FOR [KEY] SHARE (row locks).
const WRITE_WORD = /\b(?:insert|update|delete|merge|share)\b/i;

/** A statement that only reads: it begins with SELECT (or WITH) and neither writes nor locks rows. */
export function isPlainRead(text: string): boolean {
  return READ_START.test(text) && !WRITE_WORD.test(text);
}

type QueryArgs = Parameters<pg.Pool['query']>;

/**
 * What Drizzle runs on: `query` sends a plain read to the read pool and anything else to the write
 * pool, `connect` (a transaction, its reads included) takes a write connection. The class name
 * says Pool: that is how Drizzle tells a pool (connect, then release) from a single client.
 */
export class PostgresPools {
  readonly writes: pg.Pool;
  readonly reads: pg.Pool;
  /**
   * Plain reads run with `planOnce` (queryStatement): sessions that plan a prepared statement once
   * and reuse the plan (plan_cache_mode = force_generic_plan).
   */
  readonly planned: pg.Pool;

  constructor(pools: { writes: pg.Pool; reads: pg.Pool; planned: pg.Pool }) {
    this.writes = pools.writes;
    this.reads = pools.reads;
    this.planned = pools.planned;
  }

  query(...args: QueryArgs): ReturnType<pg.Pool['query']> {
    const config = args[0] as string | { text: string };
    const pool = isPlainRead(typeof config === 'string' ? config : config.text) ? this.reads : this.writes;
    return (pool.query as (...a: QueryArgs) => ReturnType<pg.Pool['query']>)(...args);
  }

  connect(): Promise<pg.PoolClient> {
    return this.writes.connect();
  }
}
