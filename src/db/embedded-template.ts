// The migrated embedded database a new data directory starts as a copy of. Made once, outside the
// server (by `npm install`'s postinstall, else by `npm start`'s prestart: scripts/prepare.ts), under
// node_modules/.cache: the first start then runs neither initdb nor the migrations. initdb's own
// WebAssembly memory (some 300 MB) would otherwise stay resident in the server for good, and
// migrating takes most of a first start.
//
// The template's name carries a hash of every migration file (names and contents) and of the
// PGlite version: a changed, added or removed migration, or another PGlite, names another
// template, so a stale one is never copied; stale ones are removed when a new one is made.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readMigrations, type Migration } from './migration-files.ts';

const ROOT = join(import.meta.dirname, '..', '..');
export const TEMPLATE_CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'recruiting-api');
const PREFIX = 'embedded-template-';

function pgliteVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The template's key: a hash of the migrations (names and contents) and of the PGlite version. */
export function templateKey(migrations: Migration[] = readMigrations()): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\0`);
  for (const migration of migrations) hash.update(migration.name).update('\0').update(migration.sql).update('\0');
  return hash.digest('hex').slice(0, 24);
}

export function templatePath(migrations: Migration[] = readMigrations(), cacheDir = TEMPLATE_CACHE_DIR): string {
  return join(cacheDir, `${PREFIX}${templateKey(migrations)}`);
}

/** The current template's directory, when it has been made; undefined otherwise (the server migrates). */
export function currentTemplate(migrations: Migration[] = readMigrations(), cacheDir = TEMPLATE_CACHE_DIR): string | undefined {
  const path = templatePath(migrations, cacheDir);
  return existsSync(join(path, 'PG_VERSION')) ? path : undefined;
}

/**
 * Makes the current template when missing (in a directory of its own, renamed into place when
 * complete) and removes stale ones. Returns its directory.
 */
export async function buildTemplate(migrations: Migration[] = readMigrations(), cacheDir = TEMPLATE_CACHE_DIR): Promise<string> {
  const path = templatePath(migrations, cacheDir);
  if (!existsSync(join(path, 'PG_VERSION'))) {
    const building = `${path}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    // Loaded only to make one: checking for the current template (before every start) loads no driver.
    const [{ openEmbedded }, { migrate }] = await Promise.all([import('./embedded.ts'), import('./migrate.ts')]);
    const database = await openEmbedded(building, undefined);
    try {
      await migrate(database, migrations);
    } finally {
      await database.close();
    }
    try {
      renameSync(building, path);
    } catch (error) {
      // Another install made it meanwhile: theirs is as good.
      rmSync(building, { recursive: true, force: true });
      if (!existsSync(join(path, 'PG_VERSION'))) throw error;
    }
  }
  for (const name of existsSync(cacheDir) ? readdirSync(cacheDir) : []) {
    if (name.startsWith(PREFIX) && join(cacheDir, name) !== path && !name.includes('.building-')) rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
  return path;
}
