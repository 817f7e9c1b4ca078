// Opening the database the way every entry point does: connect (or lock and open the embedded
// directory), then apply pending migrations.
import type { Config } from '../config.ts';
import { openDatabase, type Database } from './client.ts';
import { migrate } from './migrate.ts';

export async function startDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.dbPoolSize,
    timeouts: {
      statementMs: config.dbStatementTimeoutMs,
      idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
      poolWaitMs: config.dbPoolTimeoutMs,
    },
  });
  try {
    await migrate(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}
