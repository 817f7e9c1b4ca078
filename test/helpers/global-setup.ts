// Migrates one template database per test run; every test file then starts from a copy of it
// (PGlite: a dumped data directory; PostgreSQL: CREATE DATABASE ... TEMPLATE), so no file pays
// for migrations and no file sees another's rows.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';
import { adminUrl, databaseUrlFor } from './postgres-url.ts';
import { linesWithSecrets } from './secret-patterns.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    embeddedTemplatePath: string;
    postgresTemplate: string;
    suiteLogDir: string;
  }
}

/**
 * Every test app (and every child process a test starts) logs into one directory per run; when the
 * run ends, every line is scanned, and a whsec_ secret, an rk_live_ key or a bearer token in any of
 * them fails the run (the directory is kept for a look; the report masks the secrets).
 */
function checkSuiteLogs(dir: string): void {
  const found: string[] = [];
  let lines = 0;
  for (const file of readdirSync(dir)) {
    const text = readFileSync(join(dir, file), 'utf8');
    lines += text.split('\n').length;
    for (const line of linesWithSecrets(text)) found.push(`${file}: ${line}`);
  }
  if (found.length === 0) {
    rmSync(dir, { recursive: true, force: true });
    return;
  }
  process.exitCode = 1;
  throw new Error(
    `Secrets in the test suite's logs (${found.length} of ${lines} lines; logs kept in ${dir}):\n${found.slice(0, 20).join('\n')}`,
  );
}

export default async function setup(project: TestProject) {
  const logDir = mkdtempSync(join(tmpdir(), 'recruiting-test-logs-'));
  project.provide('suiteLogDir', logDir);
  const teardownDatabases = await setupDatabases(project);
  return async () => {
    await teardownDatabases();
    checkSuiteLogs(logDir);
  };
}

async function setupDatabases(project: TestProject): Promise<() => void | Promise<void>> {
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
