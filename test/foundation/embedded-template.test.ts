// Issue 31 items 10 and 11: the embedded database starts with small buffers (its memory), and a new
// data directory starts as a copy of the migrated template made at install (its first start). A
// template made for other migrations must never be copied: its name is a hash of them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../src/db/client.ts';
import { EMBEDDED_SETTINGS } from '../../src/db/embedded.ts';
import { buildTemplate, currentTemplate, templateKey } from '../../src/db/embedded-template.ts';
import { migrate, readMigrations, type Migration } from '../../src/db/migrate.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recruiting-template-'));
  dirs.push(dir);
  return dir;
}

// The first migrations stand for "the migrations" (building a template of all of them twice would
// take most of a minute on a busy machine; the key and the copy do not depend on which they are).
const OLD: Migration[] = readMigrations().slice(0, 2);
const CHANGED: Migration[] = [OLD[0], { ...OLD[1], sql: `${OLD[1].sql};\nCREATE TABLE template_probe (id int)` }];
const ADDED: Migration[] = [...OLD, { name: '9999_template_probe', sql: 'CREATE TABLE template_probe (id int)' }];

async function tables(dataDir: string, templateDir: string | undefined): Promise<{ probe: boolean; applied: string[]; pending: string[] }> {
  const database = await openDatabase({ dataDir, templateDir });
  try {
    const probe = (await queryRows<{ t: string | null }>(database.db, sql`select to_regclass('template_probe')::text as t`))[0].t !== null;
    const applied = (await queryRows<{ name: string }>(database.db, sql`select name from schema_migrations order by name`)).map((row) => row.name);
    return { probe, applied, pending: await migrate(database, ADDED) };
  } finally {
    await database.close();
  }
}

describe('the embedded database template', () => {
  it('is named by a hash of the migrations: a changed or added migration names another, so a stale template is never used', { timeout: 180_000 }, async () => {
    const cache = tempDir();
    const old = await buildTemplate(OLD, cache);
    expect(currentTemplate(OLD, cache)).toBe(old);
    expect(templateKey(CHANGED)).not.toBe(templateKey(OLD));
    expect(templateKey(ADDED)).not.toBe(templateKey(OLD));
    expect(templateKey([...OLD].reverse())).not.toBe(templateKey(OLD));
    // After a migration changed, the old template is not offered...
    expect(currentTemplate(ADDED, cache)).toBeUndefined();
    // ...and a new data directory started from what is offered has the new migration.
    const fresh = await buildTemplate(ADDED, cache);
    expect(fresh).not.toBe(old);
    expect(existsSync(old)).toBe(false); // the stale one is removed
    const started = await tables(join(tempDir(), 'data'), currentTemplate(ADDED, cache));
    expect(started.probe).toBe(true);
    expect(started.applied).toEqual(ADDED.map((m) => m.name));
    expect(started.pending).toEqual([]); // nothing left to migrate at the first start
  });

  it('starts only a data directory holding no database: an existing one keeps its rows', { timeout: 120_000 }, async () => {
    const cache = tempDir();
    const template = await buildTemplate(OLD, cache);
    const dataDir = join(tempDir(), 'data');
    const first = await openDatabase({ dataDir, templateDir: template });
    await first.execScript('CREATE TABLE kept (id int); INSERT INTO kept VALUES (7)');
    await first.close();
    const again = await openDatabase({ dataDir, templateDir: template });
    try {
      expect(await queryRows(again.db, sql`select id from kept`)).toEqual([{ id: 7 }]);
    } finally {
      await again.close();
    }
    // The template itself is untouched by what its copies do.
    expect(readFileSync(join(template, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    const other = await tables(join(tempDir(), 'data'), template);
    expect(other.applied).toEqual(OLD.map((m) => m.name));
  });
});

describe('the embedded database memory settings (docs/decisions.md)', () => {
  it('PostgreSQL runs with small buffers: SHOW answers the settings', async () => {
    const database = await openDatabase({}); // in memory, as every embedded open
    try {
      const show = async (name: string) =>
        (await queryRows<Record<string, string>>(database.db, sql.raw(`SHOW ${name}`)))[0][name];
      expect(await show('shared_buffers')).toBe('8MB');
      expect(await show('wal_buffers')).toBe('256kB');
      for (const [name, value] of Object.entries(EMBEDDED_SETTINGS)) expect(await show(name)).toBe(value);
    } finally {
      await database.close();
    }
  });

  it('npm start runs the server with the memory flags (WebAssembly baseline code only, V8 sized for memory)', () => {
    const scripts = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toMatch(/--liftoff-only/);
    expect(scripts.start).toMatch(/--optimize-for-size/);
    // Smaller, not faster: only for the embedded default, not a PostgreSQL deployment's server.
    expect(scripts.start).toMatch(/\$\{DATABASE_URL:\+--no-optimize-for-size\}/);
    expect(scripts.start).toMatch(/--max-old-space-size=\d+/);
    // The template and the dashboard are made at install, and again (when missing) before a start.
    expect(scripts.postinstall).toBe('node scripts/prepare.ts');
    expect(scripts.prestart).toBe('node scripts/prepare.ts');
  });
});
