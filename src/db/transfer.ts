// Moving data out of the embedded database: a backup of the whole data directory (PGlite's
// dumpDataDir, a gzipped tarball), its restore into an empty directory, and a copy of every row into
// a PostgreSQL database, for an installation that outgrows one process. All three open the embedded
// directory the usual way, so they take its lock and refuse while a server holds it: the copy is
// consistent because nothing else writes meanwhile. Uploaded files: the directory store's default
// place (DATA_DIR/files) is inside the data directory, so the backup carries them and the restore
// puts them back (0600 files, 0700 directories, like the rest); the export copies them into the
// target's file store when it is given one (docs/decisions.md, "Files in backup and export").
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { FileStore } from '../adapters/file-store/file-store.ts';
import { copyFiles } from '../adapters/file-store/copy.ts';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { COUNTED_ON_INSERT, REPLACED_AFTER_COPY } from '../infra/kept-counts/copy.ts';
import { compactKeptCounts } from '../infra/kept-counts/compact.ts';
import { openDatabase, queryRows, type Database } from './client.ts';
import { EMBEDDED_EXTENSIONS } from './embedded.ts';
import { privateDataDir, restrictDataDirModes } from './data-dir-modes.ts';
import { lockDataDir } from './embedded-lock.ts';
import { migrate } from './migrate.ts';

export class TransferError extends Error {
  override name = 'TransferError';
}

/** Whether `path` is `dataDir` or lies under it. */
export function isInside(dataDir: string, path: string): boolean {
  const rel = relative(resolve(dataDir), resolve(path));
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * Writes a backup of the embedded database in `dataDir` to `outFile` (never over an existing file).
 * Files kept under `dataDir` (the directory store's default DATA_DIR/files) are in it.
 */
export async function backupEmbedded(dataDir: string, outFile: string): Promise<{ bytes: number }> {
  if (existsSync(outFile)) throw new TransferError(`${outFile} already exists: choose another --out`);
  if (!existsSync(dataDir)) throw new TransferError(`No embedded database in ${dataDir}`);
  const database = await openDatabase({ dataDir });
  try {
    const dump = await database.dumpDataDir!('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    // Written aside first, so a crash never leaves a truncated file under the real name.
    writeFileSync(`${outFile}.partial`, bytes, { mode: 0o600 });
    renameSync(`${outFile}.partial`, outFile);
    return { bytes: bytes.length };
  } finally {
    await database.close();
  }
}

/** Restores a backup into `dataDir`, which must not hold a database yet; then migrates it. */
export async function restoreEmbedded(inFile: string, dataDir: string): Promise<{ applied: string[] }> {
  if (!existsSync(inFile)) throw new TransferError(`${inFile} does not exist`);
  if (existsSync(dataDir) && readdirSync(dataDir).some((name) => name !== 'recruiting.lock')) {
    throw new TransferError(`${dataDir} is not empty: restore into a new DATA_DIR, or move this one aside first`);
  }
  privateDataDir(dataDir);
  const unlock = lockDataDir(dataDir);
  try {
    const client = await PGlite.create(`file://${dataDir}`, { loadDataDir: new Blob([readFileSync(inFile)]), extensions: EMBEDDED_EXTENSIONS });
    await client.close();
    // The archive's files come out with the modes they were saved with (the key file's included).
    restrictDataDirModes(dataDir);
  } finally {
    unlock();
  }
  const database = await openDatabase({ dataDir });
  try {
    return { applied: await migrate(database) }; // a backup from an older release catches up
  } finally {
    await database.close();
  }
}

const BATCH_ROWS = 1000;

interface TableInfo {
  name: string;
  /** Columns that can be written (generated ones are computed by the target). */
  columns: string[];
}

/** Tables of the public schema, parents before children (foreign keys), without migration bookkeeping. */
async function tablesInCopyOrder(source: Database): Promise<TableInfo[]> {
  const tables = await queryRows<{ name: string }>(
    source.db,
    sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`,
  );
  const edges = await queryRows<{ child: string; parent: string }>(
    source.db,
    sql`SELECT c.relname AS child, p.relname AS parent
        FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
        WHERE k.contype = 'f' AND k.connamespace = 'public'::regnamespace AND c.oid <> p.oid`,
  );
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (name: string) => {
    if (ordered.includes(name) || visiting.has(name)) return;
    visiting.add(name);
    for (const edge of edges) if (edge.child === name) visit(edge.parent);
    ordered.push(name);
  };
  for (const table of tables) visit(table.name);
  const result: TableInfo[] = [];
  for (const name of ordered) {
    const columns = await queryRows<{ column_name: string }>(
      source.db,
      sql`SELECT column_name FROM information_schema.columns
          WHERE table_schema = 'public' AND table_name = ${name} AND is_generated = 'NEVER'
          ORDER BY ordinal_position`,
    );
    result.push({ name, columns: columns.map((column) => column.column_name) });
  }
  return result;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Copies every row of the embedded database in `dataDir` into the PostgreSQL database at
 * `databaseUrl` (migrated first; it must hold no company yet), in one transaction: all or nothing.
 * Rows keep their ids, so API keys (stored as hashes), webhook subscriptions with their sealed
 * secrets, and pending deliveries carry on as they were. The kept counts are not copied: the
 * target's triggers count the copied rows (src/infra/kept-counts/copy.ts). Returns the rows copied
 * per table.
 */
export async function exportToPostgres(
  dataDir: string,
  databaseUrl: string,
  options: { files?: { from: FileStore; to: FileStore } } = {},
): Promise<{ tables: Record<string, number>; files?: { copied: number; bytes: number } }> {
  if (!existsSync(dataDir)) throw new TransferError(`No embedded database in ${dataDir}`);
  const source = await openDatabase({ dataDir });
  let target: Database | undefined;
  try {
    await migrate(source);
    target = await openDatabase({ databaseUrl, poolSize: 2 });
    await migrate(target);
    const [existing] = await queryRows<{ n: number }>(target.db, sql`SELECT count(*)::int AS n FROM companies`);
    if (existing!.n > 0) {
      throw new TransferError('The PostgreSQL database already holds companies: export into an empty (or newly created) database');
    }
    // The files first: a copy that fails half-way leaves the target database empty, so the export
    // can simply run again (a put replaces an object whole); rows copied first would refuse it.
    const files = options.files ? await copyFiles(options.files.from, options.files.to) : undefined;
    const tables = (await tablesInCopyOrder(source)).filter((table) => !COUNTED_ON_INSERT.includes(table.name));
    // Tables the triggers also write go last, emptied of what the triggers wrote meanwhile.
    const replaced = tables.filter((table) => REPLACED_AFTER_COPY.includes(table.name));
    const copyOrder = [...tables.filter((table) => !REPLACED_AFTER_COPY.includes(table.name)), ...replaced];
    const copied: Record<string, number> = {};
    await target.db.transaction(async (tx) => {
      for (const table of copyOrder) {
        if (replaced.includes(table)) await tx.execute(sql.raw(`DELETE FROM ${ident(table.name)}`));
        const columns = table.columns.map(ident).join(', ');
        let after = '(0,0)';
        let count = 0;
        for (;;) {
          // Keyset by physical row id: each batch is one indexed range read, however big the table.
          const rows = await queryRows<{ tid: string; row: string }>(
            source.db,
            sql.raw(
              `SELECT ctid::text AS tid, row_to_json(t)::text AS row FROM ${ident(table.name)} t
               WHERE ctid > '${after}'::tid ORDER BY ctid LIMIT ${BATCH_ROWS}`,
            ),
          );
          if (rows.length === 0) break;
          after = rows[rows.length - 1]!.tid;
          const json = `[${rows.map((r) => r.row).join(',')}]`;
          // Reference data the migrations already wrote on the target is there: keep it.
          const inserted = await queryRows<{ one: number }>(
            tx,
            sql`${sql.raw(`INSERT INTO ${ident(table.name)} (${columns}) SELECT ${columns} FROM json_populate_recordset(null::${ident(table.name)}, `)}${json}::json${sql.raw(') ON CONFLICT DO NOTHING RETURNING 1 AS one')}`,
          );
          count += inserted.length;
        }
        copied[table.name] = count;
      }
      // The triggers appended a few delta rows per batch: folded now, so totals read one row a key.
      await compactKeptCounts(tx);
    });
    return { tables: copied, ...(files ? { files } : {}) };
  } finally {
    await target?.close();
    await source.close();
  }
}
