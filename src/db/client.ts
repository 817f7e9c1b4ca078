// One database handle for both engines: PGlite (embedded, in ./data) when DATABASE_URL is unset,
// PostgreSQL otherwise. Everything above this file sees only Drizzle and SQL.
import { PGlite, type PGliteOptions, type Transaction } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { SQL } from 'drizzle-orm';
import pg from 'pg';
import type { PoolStats } from '../shared/metrics.ts';
import { privateDataDir, restrictDataDirModes } from './data-dir-modes.ts';
import { lockDataDir } from './embedded-lock.ts';
import { isPlainRead, PostgresPools } from './postgres-pools.ts';
import { readArrayAnswersWithoutTemplate } from './pg-array-answers.ts';

/** A Drizzle database or transaction: repos accept either. */
export type Db = PgDatabase<PgQueryResultHKT>;

/** Runs a raw SQL query (for what the query builder does not express) and returns its rows. */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** The extensions the migrations create (btree_gin: the candidates' search index); PGlite must load them. */
export const EMBEDDED_EXTENSIONS: PGliteOptions['extensions'] = { btree_gin };

/** A fixed statement (queryStatement): its prepared statement, and its row builder once made. */
interface FixedStatement {
  /**
   * What the statement's every execution tells pg but its values (its prepared statement's name
   * among them): the prototype of each query's config. pg copies a query's config property by
   * property (descriptors) before running it, and so copies only the values, the config's one own
   * property.
   */
  query: { name: string; text: string; types: typeof STATEMENT_TYPES; rowMode: 'array' };
  /** Whether it runs on the read pool (isPlainRead), decided once. */
  plainRead: boolean;
  /** The column names `build` was made for. */
  columns: string[];
  build: ((values: unknown[]) => unknown) | undefined;
}

/** The fixed statements run so far, by their text. */
const fixedStatements = new Map<string, FixedStatement>();

const TIMESTAMPTZ = pg.types.builtins.TIMESTAMPTZ;
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ) as (text: string) => Date;

/**
 * A Date read from PostgreSQL's UTC text that keeps the text it was read from: answering it
 * (toISOString, and so JSON) rewrites that text rather than formatting the date again, which cost
 * ~0.7 us each, 20 to 40 times on every list page. Changed afterwards (setTime...), it formats as
 * any Date does.
 */
class UtcTimestamp extends Date {
  readonly #time: number;
  readonly #text: string;

  constructor(time: number, text: string) {
    super(time);
    this.#time = time;
    this.#text = text;
  }

  override toISOString(): string {
    if (this.getTime() !== this.#time) return super.toISOString();
    const text = this.#text;
    const n = text.length;
    // '.775697+00' -> '.775', '.7+00' -> '.700', no fraction -> '.000'
    const fraction = n >= 26 ? text.slice(19, 23) : n > 22 ? text.slice(19, n - 3).padEnd(4, '0') : '.000';
    return `${text.slice(0, 10)}T${text.slice(11, 19)}${fraction}Z`;
  }
}

/** The number written by the two digits at `i`. */
const twoDigits = (text: string, i: number) => (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;

/**
 * A timestamptz as PostgreSQL writes it in UTC ('2026-11-23 17:52:51.775697+00'), read without pg's
 * general regular expressions or a string per field: a list page has dozens, and their parsing and
 * garbage showed in the profile. The same instant pg's parser makes (milliseconds truncated), as a
 * UtcTimestamp; any other form (another zone, BC, years before 1000, infinity) goes to pg's parser.
 */
function parseUtcTimestamptz(text: string): Date {
  const n = text.length;
  if (n < 22 || text.charCodeAt(10) !== 32 || text.charCodeAt(0) === 48 || !text.endsWith('+00') || (n > 22 && text.charCodeAt(19) !== 46)) {
    return parseTimestamptz(text);
  }
  let milliseconds = 0;
  for (let i = 20, scale = 100; i < 23 && i < n - 3; i++, scale /= 10) milliseconds += (text.charCodeAt(i) - 48) * scale;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const time = Date.UTC(year, twoDigits(text, 5) - 1, twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14), twoDigits(text, 17), milliseconds);
  return new UtcTimestamp(time, text);
}

const STATEMENT_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary' ? parseUtcTimestamptz : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * Builds a row object from the driver's array of values, as one object literal with the columns'
 * names: every row of a statement gets the same shape at once. pg builds each row by copying a
 * template and storing each column by its name, read afresh from every answer, and code reading
 * those rows ran slower (with this, ~7-14% less server CPU a listings page, ~13-18% a candidates
 * page, in alternating rounds). A later column of the same name wins, as with pg's objects; a name
 * that an object literal would not store as a plain property (`__proto__`) keeps the
 * property-by-property build.
 */
function rowBuilderFor(names: string[]): (values: unknown[]) => unknown {
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = {};
      names.forEach((name, i) => Object.defineProperty(row, name, { value: values[i], enumerable: true, writable: true, configurable: true }));
      return row;
    };
  }
  const properties = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  // The names are the statement's own columns, each written as a JSON string literal.
  return new Function('values', `return { ${properties} };`) as (values: unknown[]) => unknown;
}

/** The statement's builder for this answer's columns: made again if they are not the ones it was made for (a `*` after a migration). */
function rowBuilderOf(statement: FixedStatement, fields: Array<{ name: string }>): (values: unknown[]) => unknown {
  const { columns, build } = statement;
  if (build && columns.length === fields.length && fields.every((field, i) => field.name === columns[i])) return build;
  statement.columns = fields.map((field) => field.name);
  statement.build = rowBuilderFor(statement.columns);
  return statement.build;
}

/**
 * Runs one fixed SQL text with `$1...` parameters, bypassing Drizzle's query builder: for the hot
 * paths (list pages, status moves, the single listing), where building the query cost more than
 * running it. On PostgreSQL it is a named prepared statement (parsed and planned once per
 * connection, then only bound and run); on the embedded database a plain parameterized query.
 * Values come back as the driver parses them: timestamptz as Date, int4 as number, jsonb parsed,
 * int8 and numeric as strings. On the database it takes a pooled connection; inside a transaction
 * it runs on the transaction's own connection. `planOnce`: planned once per session, for
 * statements whose best plan is the same whatever their values (the planned pool, see openPostgres;
 * inside a transaction, on its connection as any other statement). A plain read (isPlainRead) runs
 * on the read pool, any other statement on the write pool.
 */
export async function queryStatement<T>(db: Db, text: string, values: unknown[], options: { planOnce?: boolean } = {}): Promise<T[]> {
  const client = driverClientOf(db);
  if (client instanceof PostgresPools || client instanceof pg.Client) {
    let statement = fixedStatements.get(text);
    if (statement === undefined) {
      const query = { name: `s${fixedStatements.size}`, text, types: STATEMENT_TYPES, rowMode: 'array' } as const;
      fixedStatements.set(text, (statement = { query, plainRead: isPlainRead(text), columns: [], build: undefined }));
    }
    const target =
      client instanceof PostgresPools ? (options.planOnce ? client.planned : statement.plainRead ? client.reads : client.writes) : client;
    const config = Object.create(statement.query) as pg.QueryArrayConfig;
    config.values = values;
    const result = await target.query<unknown[]>(config);
    return result.rows.map(rowBuilderOf(statement, result.fields)) as T[];
  }
  if (client instanceof PGlite || isPgliteTransaction(client)) return (await client.query<T>(text, values)).rows;
  throw new Error('queryStatement: not a database handle of this app');
}

/**
 * The driver's client behind a Drizzle handle: the database's pool (or PGlite), or, for a
 * transaction, the connection (or PGlite transaction) it runs on, which Drizzle keeps on its session.
 */
function driverClientOf(db: Db): unknown {
  return (db as { $client?: unknown }).$client ?? (db as unknown as { session?: { client?: unknown } }).session?.client;
}

function isPgliteTransaction(client: unknown): client is Transaction {
  return typeof client === 'object' && client !== null && typeof (client as Transaction).query === 'function' && 'rollback' in client;
}

/**
 * A deadlock (40P01) or serialization failure (40001): PostgreSQL rolled the transaction back and
 * running it again may well succeed. Drizzle wraps the driver's error, so the cause chain is read.
 */
export function isTransientTransactionError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === '40P01' || e.code === '40001') return true;
  }
  return false;
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
  /**
   * Receives NOTIFY on a channel (PostgreSQL: one dedicated connection per process; embedded: the
   * in-process PGlite signal). `onState(false)` says notifications may be missed from now on (the
   * connection dropped): anything trusting them must stop; `onState(true)` says they flow again,
   * and some may have been missed meanwhile. Answers an unsubscribe.
   */
  listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PostgreSQL only: the connection pool's use and waits, for /metrics. */
  poolStats?(): PoolStats;
  /** Embedded only: the whole data directory as a tarball (tests start each file from one). */
  dumpDataDir?(compression?: 'none' | 'gzip'): Promise<Blob>;
}

export interface NotificationListener {
  onMessage(payload: string): void;
  onState(listening: boolean): void;
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

/** Longest wait for readiness's own connection and its `select 1` (PostgreSQL). */
const READY_TIMEOUT_MS = 2_000;

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
  if (dataDir) privateDataDir(dataDir);
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let client: PGlite | undefined;
  try {
    client = await PGlite.create(dataDir ? `file://${dataDir}` : undefined, { extensions: EMBEDDED_EXTENSIONS, ...(loadDataDir ? { loadDataDir } : {}) });
    // PGlite sets the modes of the files it starts from itself (0666), past the umask.
    if (dataDir) restrictDataDirModes(dataDir);
  } catch (error) {
    await client?.close().catch(() => {});
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
    async listen(channel, listener) {
      const unsubscribe = await client.listen(channel, (payload) => listener.onMessage(payload));
      listener.onState(true);
      return unsubscribe;
    },
    async dumpDataDir(compression = 'none') {
      return client.dumpDataDir(compression);
    },
    async close() {
      try {
        if (!client.closed) await client.close();
        // And of a few it rewrites while running (the relation cache's init files, 0644).
        if (dataDir) restrictDataDirModes(dataDir);
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
  const poolConfig: pg.PoolConfig = {
    connectionString: databaseUrl,
    max: poolSize,
    connectionTimeoutMillis: timeouts.poolWaitMs,
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
  };
  readArrayAnswersWithoutTemplate();
  // Writes and transactions; plain reads on a pool of their own (PostgresPools).
  const pool = new pg.Pool(poolConfig);
  const readPool = new pg.Pool(poolConfig);
  // Readiness asks on a connection of its own, kept open, with a short timeout: a full pool or a
  // lock must not make a database that answers look down (and take every server out of rotation).
  const readyPool = new pg.Pool({
    connectionString: databaseUrl,
    max: 1,
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: READY_TIMEOUT_MS,
    statement_timeout: READY_TIMEOUT_MS,
  });
  // For statements run with `planOnce`: its sessions plan a prepared statement once and reuse that
  // plan (plan_cache_mode = force_generic_plan). By default PostgreSQL plans a list page's
  // statement anew on every execution (its LIMIT and OFFSET parameters make the generic plan look
  // costlier than it is), and that planning was half the database's time on a page. Only
  // statements whose plan never depends on their values may ask for it: a deep page's or a
  // search's best plan does (generic, a deep page took 150 ms), and they keep PostgreSQL's choice
  // on the read pool. Connects only when a planOnce statement first needs it; set on each session
  // before its first use.
  const statementPool = new pg.Pool({
    ...poolConfig,
    // JIT off as well: a plan made without knowing the page's limit estimates a fraction of the
    // company's rows (a limit parameter counts as 10% of them), which passes jit_above_cost, and
    // PostgreSQL then compiled the plan again on every execution (7 ms for a 0.2 ms page).
    onConnect: async (client) => void (await client.query('SET plan_cache_mode = force_generic_plan; SET jit = off')),
  });
  const pools = new PostgresPools({ writes: pool, reads: readPool, planned: statementPool });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  statementPool.on('error', () => {});
  readPool.on('error', () => {});
  readyPool.on('error', () => {});
  for (const each of [pool, readPool, statementPool, readyPool]) dropBrokenConnections(each);
  const waits = [pool, readPool, statementPool].map(measureWaits);
  // Fail fast on a wrong URL rather than at the first request.
  try {
    (await pool.connect()).release();
  } catch (error) {
    for (const each of [pool, readPool, statementPool, readyPool]) await each.end().catch(() => {});
    const url = new URL(databaseUrl); // named without its credentials
    throw new DatabaseConnectError(
      `Cannot connect to PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname} (DATABASE_URL): ${(error as Error).message}`,
      { cause: error },
    );
  }
  const notifications = new PostgresNotifications(databaseUrl);
  return {
    kind: 'postgres',
    db: drizzlePg(pools as unknown as pg.Pool) as unknown as Db,
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
      await readyPool.query('select 1');
    },
    listen: (channel, listener) => notifications.listen(channel, listener),
    // The three request pools together (write, read, planned: poolSize each at most); readiness's
    // own connection aside.
    poolStats: () => {
      const each = [pool, readPool, statementPool];
      const sum = (pick: (pool: pg.Pool) => number) => each.reduce((total, one) => total + pick(one), 0);
      return {
        max: each.length * poolSize,
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
      for (const each of [pool, readPool, statementPool, readyPool]) if (!each.ended) await each.end();
    },
  };
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
function dropBrokenConnections(pool: pg.Pool): void {
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
function measureWaits(pool: pg.Pool): { acquired: number; seconds: number } {
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

/**
 * LISTEN on PostgreSQL: one connection outside the pool, opened at the first listen. When it drops,
 * every listener hears onState(false) at once, and onState(true) once it is back (after a retry
 * every second), its channels listened to again.
 */
class PostgresNotifications {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly listeners = new Map<string, Set<NotificationListener>>();
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  private readonly databaseUrl: string;

  constructor(databaseUrl: string) {
    this.databaseUrl = databaseUrl;
  }

  async listen(channel: string, listener: NotificationListener): Promise<() => Promise<void>> {
    let set = this.listeners.get(channel);
    const fresh = !set;
    if (!set) this.listeners.set(channel, (set = new Set()));
    set.add(listener);
    const client = this.client;
    if (client) {
      try {
        if (fresh) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        listener.onState(true);
      } catch {
        // The connection broke under this LISTEN: the channel is listened to again on the next one.
        listener.onState(false);
        this.lost(client);
      }
    } else {
      listener.onState(false);
      await this.connect();
    }
    return async () => {
      set.delete(listener);
    };
  }

  private connect(): Promise<void> {
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async open(): Promise<void> {
    // Already open: a listen() may have opened it while a retry was waiting.
    if (this.closed || this.client) return;
    // Keepalive: this connection only ever waits, and a network that drops it silently would
    // otherwise go unnoticed (nothing written, so nothing fails). A connection attempt that hangs
    // gives up, and is retried.
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 10_000,
    });
    const lost = () => this.lost(client);
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      for (const listener of this.listeners.get(message.channel) ?? []) listener.onMessage(message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      client.end().catch(() => {});
      this.scheduleRetry();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.broadcast(true);
  }

  /** The listening connection broke: listeners hear it, and a new one is opened. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.broadcast(false);
    client.end().catch(() => {});
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      void this.connect();
    }, 1_000);
    this.retry.unref();
  }

  private broadcast(listening: boolean): void {
    for (const set of this.listeners.values()) for (const listener of set) listener.onState(listening);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (client) await client.end().catch(() => {});
  }
}
