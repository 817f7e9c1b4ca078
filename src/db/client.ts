// Opening the database: PGlite (embedded, in ./data) when DATABASE_URL is unset, PostgreSQL
// otherwise, both behind the Database of src/db/driver.ts. The rest of src/db/ as one import for
// the app: statements, errors.
import { openEmbedded } from './embedded.ts';
import { DEFAULT_DATABASE_TIMEOUTS, openPostgres, type DatabaseTimeouts } from './postgres.ts';
import type { Database } from './driver.ts';

export type { Database, Db, NotificationListener } from './driver.ts';
export { DatabaseConnectError, isDatabaseBusy, isTransientTransactionError, sqlState } from './errors.ts';
export type { DatabaseTimeouts } from './postgres.ts';
export { queryRows, queryStatement } from './statements.ts';

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; undefined with no databaseUrl means in memory. */
  dataDir?: string | undefined;
  /** A dumped embedded data directory to start from (tests clone a migrated template). */
  loadDataDir?: Blob | undefined;
  /** A migrated embedded database a new data directory starts as a copy of (src/db/embedded-template.ts). */
  templateDir?: string | undefined;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** PostgreSQL only; 0 means none. */
  timeouts?: DatabaseTimeouts;
}

export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, options.poolSize ?? 10, options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS);
  }
  return openEmbedded(options.dataDir, options.loadDataDir, options.templateDir);
}
