// Opening the database the way every entry point does: connect (or lock and open the embedded
// directory), then apply pending migrations.
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';
import { currentTemplate } from './embedded-template.ts';
import { migrate, readMigrations } from './migrate.ts';

export async function startDatabase(config: Config): Promise<Database> {
  const migrations = readMigrations();
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    // A new embedded data directory starts as a copy of the migrated template when one was made.
    templateDir: config.databaseUrl ? undefined : currentTemplate(migrations),
    poolSize: config.dbPoolSize,
    timeouts: {
      statementMs: config.dbStatementTimeoutMs,
      idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
      poolWaitMs: config.dbPoolTimeoutMs,
    },
  });
  try {
    await migrate(database, migrations);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
