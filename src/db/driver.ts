// The one seam between the app and its two engines: PGlite (embedded, src/db/embedded.ts) and
// PostgreSQL (src/db/postgres.ts). Everything that differs between them is behind `Database` and
// `StatementClient`; everything above sees only Drizzle, SQL and the values of src/db/values.ts.
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { PoolStats } from '../shared/metrics.ts';

/** A Drizzle database or transaction: repos accept either. */
export type Db = PgDatabase<PgQueryResultHKT>;

export interface StatementOptions {
  /**
   * PostgreSQL: plan the statement once per session and keep that plan (for statements whose best
   * plan is the same whatever their values; see src/db/postgres-pools.ts). Embedded: no effect.
   */
  planOnce?: boolean;
  /**
   * Each row answered as the array of its values in the select list's order, read by index: no
   * object is built per row (on PostgreSQL pg builds each row's object by storing every column by
   * its name, a store that cannot be specialized when every statement's names pass through it, ~3
   * us of a 20-row page).
   */
  arrays?: boolean;
}

/**
 * What Drizzle runs on, for each engine: the database's client and every transaction's connection.
 * It also runs a fixed statement (queryStatement) there, its values parsed by src/db/values.ts.
 */
export interface StatementClient {
  runStatement(text: string, values: unknown[], options: StatementOptions): Promise<unknown[]>;
}

export function isStatementClient(client: unknown): client is StatementClient {
  return typeof client === 'object' && client !== null && typeof (client as StatementClient).runStatement === 'function';
}

export interface NotificationListener {
  onMessage(payload: string): void;
  onState(listening: boolean): void;
}

/** An open database, embedded or PostgreSQL: built once by the composition root (src/db/start.ts). */
export interface Database {
  readonly kind: 'embedded' | 'postgres';
  /** Drizzle over the engine's StatementClient. */
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
  /** PostgreSQL only: the connection pools' use and waits, for /metrics. */
  poolStats?(): PoolStats;
  /** Embedded only: the whole data directory as a tarball (tests start each file from one). */
  dumpDataDir?(compression?: 'none' | 'gzip'): Promise<Blob>;
}
