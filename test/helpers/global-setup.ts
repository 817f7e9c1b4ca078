// Migrates one template database per test run; every test file then starts from a copy of it
// (PGlite: a dumped data directory; PostgreSQL: CREATE DATABASE ... TEMPLATE), so no file pays
// for migrations and no file sees another's rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { adminUrl, databaseUrlFor } from './postgres-url.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplatePath: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const template = `recruiting_tmpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    const database = await openDatabase({ databaseUrl: databaseUrlFor(databaseUrl, template), poolSize: 1 });
    await migrate(database);
    await database.close();
    project.provide('postgresTemplate', template);
    project.provide('embeddedTemplatePath', '');
    return async () => {
      // Test files drop their own copies; this catches any a crashed file left behind.
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'recruiting_t\\_${process.pid}\\_%' OR datname = $1`,
        [template],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(join(tmpdir(), 'recruiting-test-'));
  const database = await openDatabase({}); // in memory
  await migrate(database);
  const dump = await database.dumpDataDir!();
  await database.close();
  const path = join(dir, 'template.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  project.provide('embeddedTemplatePath', path);
  project.provide('postgresTemplate', '');
  return () => rmSync(dir, { recursive: true, force: true });
}
