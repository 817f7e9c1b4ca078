// The embedded engine: PGlite in ./data (or in memory), one connection, no pools.
import { cpSync, existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PGlite, type PGliteOptions, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { privateDataDir, restrictDataDirModes } from './data-dir-modes.ts';
import type { Database, Db, StatementClient, StatementOptions } from './driver.ts';
import { lockDataDir } from './embedded-lock.ts';
import { VALUE_PARSERS } from './values.ts';

/**
 * The extensions the migrations create (btree_gin: the candidates' search index; pg_trgm: the
 * listings' position search, migration 0041); PGlite must load them.
 */
export const EMBEDDED_EXTENSIONS: PGliteOptions['extensions'] = { btree_gin, pg_trgm };

/**
 * PostgreSQL's memory inside PGlite, sized for one connection in a laptop or a 512 MB container.
 * PGlite's WebAssembly memory only grows (it is never given back), so each buffer PostgreSQL sizes
 * at start, or fills once, stays resident for the life of the process: shared_buffers (PostgreSQL's
 * default 128MB) is 8MB here, its WAL buffers follow, and the per-operation maxima a single
 * connection could touch are kept small. The operating system's page cache still caches the data
 * files, so reads past the buffers cost a copy, not a disk read. See docs/decisions.md.
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '8MB',
  wal_buffers: '256kB',
  temp_buffers: '1MB',
  maintenance_work_mem: '16MB',
};
const START_PARAMS = [...PGlite.defaultStartParams, ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];

const STATEMENT_OPTIONS: QueryOptions = { parsers: VALUE_PARSERS };
const ARRAY_STATEMENT_OPTIONS: QueryOptions = { parsers: VALUE_PARSERS, rowMode: 'array' };

/**
 * What Drizzle runs on: PGlite, or one of its transactions (whose own transactions Drizzle makes
 * with savepoints), passing through the two calls Drizzle makes.
 */
class EmbeddedClient implements StatementClient {
  readonly #target: PGlite | Transaction;

  constructor(target: PGlite | Transaction) {
    this.#target = target;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#target.query<T>(text, params, options);
  }

  transaction<T>(work: (client: EmbeddedClient) => Promise<T>): Promise<T> {
    if (!(this.#target instanceof PGlite)) throw new Error('A PGlite transaction has no transactions of its own');
    return this.#target.transaction((tx) => work(new EmbeddedClient(tx)));
  }

  async runStatement(text: string, values: unknown[], options: StatementOptions): Promise<unknown[]> {
    return (await this.#target.query(text, values, options.arrays ? ARRAY_STATEMENT_OPTIONS : STATEMENT_OPTIONS)).rows;
  }
}

/**
 * A data directory holding no database yet starts as a copy of `templateDir` (a migrated database,
 * src/db/embedded-template.ts): no initdb and no migrations in this process. PG_VERSION, whose
 * presence tells PGlite a database is there, is copied last, so a copy cut short is made again.
 */
function startFromTemplate(dataDir: string, templateDir: string | undefined): void {
  if (!templateDir || existsSync(join(dataDir, 'PG_VERSION')) || !existsSync(join(templateDir, 'PG_VERSION'))) return;
  // Not the template's own lock files (this process holds dataDir's).
  cpSync(templateDir, dataDir, { recursive: true, filter: (source) => source !== join(templateDir, 'PG_VERSION') && !basename(source).startsWith('recruiting.lock') });
  cpSync(join(templateDir, 'PG_VERSION'), join(dataDir, 'PG_VERSION'));
}

export async function openEmbedded(dataDir: string | undefined, loadDataDir: Blob | undefined, templateDir?: string): Promise<Database> {
  if (dataDir) privateDataDir(dataDir);
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  let client: PGlite | undefined;
  try {
    if (dataDir) startFromTemplate(dataDir, templateDir);
    client = await PGlite.create(dataDir ? `file://${dataDir}` : undefined, {
      extensions: EMBEDDED_EXTENSIONS,
      startParams: START_PARAMS,
      ...(loadDataDir ? { loadDataDir } : {}),
    });
    // PGlite sets the modes of the files it starts from itself (0666), past the umask.
    if (dataDir) restrictDataDirModes(dataDir);
  } catch (error) {
    await client?.close().catch(() => {});
    unlock();
    throw error;
  }
  return {
    kind: 'embedded',
    db: drizzle({ client: new EmbeddedClient(client) as unknown as PGlite }) as unknown as Db,
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
