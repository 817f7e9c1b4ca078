// Migrations are hand-written SQL and each module mirrors them in Drizzle tables.ts; this test
// keeps the two honest: every Drizzle column exists in the migrated database with the same
// nullability and a compatible type.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-app.ts';

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await openTestDatabase();
});
afterAll(async () => testDb.drop());

const MODULES_DIR = join(import.meta.dirname, '../../src/modules');

async function drizzleTables(): Promise<PgTable[]> {
  const tables: PgTable[] = [];
  for (const module of readdirSync(MODULES_DIR)) {
    const file = join(MODULES_DIR, module, 'tables.ts');
    if (!existsSync(file)) continue;
    for (const value of Object.values(await import(file))) if (value instanceof PgTable) tables.push(value);
  }
  return tables;
}

it('every Drizzle column matches the migrated schema', async () => {
  const columns = await queryRows<{ table_name: string; column_name: string; is_nullable: string; udt_name: string }>(
    testDb.database.db,
    sql`select table_name, column_name, is_nullable, udt_name from information_schema.columns where table_schema = 'public'`,
  );
  const byKey = new Map(columns.map((c) => [`${c.table_name}.${c.column_name}`, c]));
  const tables = await drizzleTables();
  expect(tables.length).toBeGreaterThan(3);
  const problems: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    for (const column of config.columns) {
      const key = `${config.name}.${column.name}`;
      const actual = byKey.get(key);
      if (!actual) {
        problems.push(`${key} is not in the database`);
        continue;
      }
      if ((actual.is_nullable === 'NO') !== column.notNull) problems.push(`${key} nullability differs`);
      const declared = column.getSQLType().replace(/\(.*\)/, '').replace('[]', '');
      const udt = actual.udt_name.replace(/^_/, '');
      const same =
        declared === udt ||
        (declared === 'timestamp with time zone' && udt === 'timestamptz') ||
        (declared === 'timestamp' && udt === 'timestamp') ||
        (declared === 'integer' && udt === 'int4') ||
        (declared === 'bigint' && udt === 'int8') ||
        (declared === 'boolean' && udt === 'bool') ||
        (declared === 'double precision' && udt === 'float8') ||
        (declared === 'real' && udt === 'float4') ||
        (declared === 'smallint' && udt === 'int2');
      if (!same) problems.push(`${key}: Drizzle says ${declared}, database has ${actual.udt_name}`);
    }
  }
  expect(problems).toEqual([]);
});
