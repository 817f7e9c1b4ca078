// Applies the SQL files in ./migrations in name order, each once, each in its own transaction.
// Migrations are plain SQL written by hand, so reviewers read exactly what runs; the Drizzle
// table definitions in each module mirror them (test/foundation/schema-drift.test.ts keeps the two honest).
import { sql } from 'drizzle-orm';
import { queryRows, type Database } from './client.ts';
import { readMigrations } from './migration-files.ts';

export { readMigrations, type Migration } from './migration-files.ts';

// Any constant works: it only keeps two processes from migrating one PostgreSQL at once.
const MIGRATION_LOCK_ID = 72_616_931;

/** Applies pending migrations; returns the names applied. */
export async function migrate(database: Database, migrations = readMigrations()): Promise<string[]> {
  await database.execScript(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied: string[] = [];
  for (const migration of migrations) {
    const quotedName = migration.name.replace(/'/g, "''");
    // One script per migration: lock, re-check, apply, record, all in one transaction, so a
    // failure leaves nothing half-applied and a concurrent migrator waits, then skips.
    const script = `
      BEGIN;
      SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID});
      DO $migration_guard$ BEGIN
        IF EXISTS (SELECT 1 FROM schema_migrations WHERE name = '${quotedName}') THEN
          RAISE EXCEPTION 'already-applied';
        END IF;
      END $migration_guard$;
      ${migration.sql};
      INSERT INTO schema_migrations (name) VALUES ('${quotedName}');
      COMMIT;`;
    const done = await queryRows(database.db, sql`select 1 from schema_migrations where name = ${migration.name}`);
    if (done.length > 0) continue;
    try {
      await database.execScript(script);
      applied.push(migration.name);
    } catch (error) {
      if (error instanceof Error && error.message.includes('already-applied')) continue;
      throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  return applied;
}
