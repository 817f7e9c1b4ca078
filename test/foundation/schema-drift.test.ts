// Migrations are hand-written SQL; each module's Drizzle tables.ts must mirror them. This compares
// every table declared in src/modules/*/tables.ts and src/infra/*/tables.ts with the migrated database: each declared column
// exists there with the same type and nullability. (The database may hold more, e.g. indexes or
// columns only raw SQL reads.)
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { is, sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-app.ts';

const TABLE_DIRS = ['../../src/modules', '../../src/infra'].map((dir) => fileURLToPath(new URL(dir, import.meta.url)));

/** Spells a type the way both sides can agree on (Drizzle writes varchar, PostgreSQL character varying). */
function normalizeType(type: string): string {
  return type
    .replace(/^character varying/, 'varchar')
    .replace(/^character\(/, 'char(')
    .replace(/^bigserial$/, 'bigint')
    .replace(/^serial$/, 'integer')
    .replace(/,\s+/g, ',');
}

async function declaredTables() {
  const tables = [];
  for (const module of TABLE_DIRS.flatMap((dir) => readdirSync(dir).map((name) => join(dir, name)))) {
    const file = join(module, 'tables.ts');
    if (!existsSync(file)) continue;
    const exports = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (is(value, PgTable)) tables.push({ module, config: getTableConfig(value) });
    }
  }
  return tables;
}

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase();
});
afterAll(async () => testDb.drop());

it('every Drizzle table matches the migrated database: columns, types, nullability', async () => {
  const rows = await queryRows<{ table_name: string; column_name: string; type: string; not_null: boolean }>(
    testDb.database.db,
    sql`select c.relname as table_name, a.attname as column_name,
               format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null
        from pg_attribute a
        join pg_class c on c.oid = a.attrelid
        join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped`,
  );
  const inDatabase = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));

  const tables = await declaredTables();
  expect(tables.length).toBeGreaterThanOrEqual(5);
  const problems: string[] = [];
  for (const { module, config } of tables) {
    for (const column of config.columns) {
      const name = `${config.name}.${column.name}`;
      const actual = inDatabase.get(name);
      if (!actual) {
        problems.push(`${module}/tables.ts declares ${name}, which no migration creates`);
        continue;
      }
      const declaredType = normalizeType(column.getSQLType());
      const actualType = normalizeType(actual.type);
      if (declaredType !== actualType) problems.push(`${name}: tables.ts says ${declaredType}, the database ${actualType}`);
      if (column.notNull !== actual.not_null) {
        problems.push(`${name}: tables.ts says ${column.notNull ? 'NOT NULL' : 'nullable'}, the database the opposite`);
      }
    }
  }
  expect(problems).toEqual([]);
});
