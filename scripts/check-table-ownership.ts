// Part of `npm run verify`: every table belongs to one module, and only that module's code names it,
// in SQL text as in Drizzle references (docs/decisions.md, "Tables belong to one module, in SQL too").
//
// - Owner: the folder whose tables.ts defines the table (src/modules/<name>/ or src/infra/<name>/).
//   Tables without a Drizzle definition are in NO_DRIZZLE below, each with its owner and reason.
//   Every table a migration creates must have exactly one owner, or the check fails.
// - Views: a module publishes a read of its tables to the others as a view (VIEWS below): any code
//   may name a view; its owner defines it in a migration and documents it in its README.md (both
//   checked here).
// - SQL text: every string and template literal of a source file (comments aside), searched for a
//   table named after FROM, JOIN, INTO, UPDATE, TABLE, TRUNCATE or LOCK (so a status value such as
//   'job_listings' passed to the kept counts is no table reference), and the `table: '...'` of a
//   batch delete (src/db/delete-batch.ts). Prose that reads like SQL ("moved from candidates") counts
//   too: reword it. Not seen: the second table of a comma-separated FROM list (write JOIN), and a
//   name assembled at run time.
// - Drizzle: an import of another folder's tables.ts, or of one of its table objects through any
//   other file of that folder.
// - Scanned: every .ts file of src/ but the tests. Code outside src/modules and src/infra (HTTP,
//   maintenance, entry files) owns no table and names none.
// - Out of scope, as they must see the whole schema: the migrations (src/db/migrations, SQL files),
//   the migration runner (src/db/migrate.ts), backup and export (src/db/transfer.ts) and tooling
//   (src/tooling: demo data and the bench seed).
// Shared infrastructure (src/infra/outbox, kept-counts, idempotency) owns its tables like a module:
// the others reach them only through its functions.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const MIGRATIONS = join(SRC, 'db', 'migrations');
const OUT_OF_SCOPE = ['src/db/migrations/', 'src/db/migrate.ts', 'src/db/transfer.ts', 'src/tooling/'];

/** Tables kept by triggers, with no Drizzle definition: owner folder (relative to src/) and why. */
const NO_DRIZZLE: Record<string, { owner: string; why: string }> = {
  company_counts: { owner: 'infra/kept-counts', why: 'deltas appended only by the triggers of migrations 0015, 0017, 0021 and 0023' },
  application_daily_counts: { owner: 'infra/kept-counts', why: 'deltas appended only by the triggers of migrations 0015 and 0023' },
  application_hires: { owner: 'infra/kept-counts', why: 'one row per current hire, kept by the triggers of migrations 0015 and 0023' },
  listing_stage_counts: { owner: 'infra/kept-counts', why: 'deltas appended only by the triggers of migration 0043' },
  application_source_counts: { owner: 'infra/kept-counts', why: 'deltas appended only by the triggers of migration 0043' },
};

/** Views a module publishes to the others (defined in a migration, documented in the owner's README.md). */
const VIEWS: Record<string, { owner: string; migration: string }> = {
  application_summaries: { owner: 'modules/applications', migration: '0033_published_views.sql' },
  application_stage_moves: { owner: 'modules/applications', migration: '0033_published_views.sql' },
  application_candidates: { owner: 'modules/applications', migration: '0034_candidate_files.sql' },
  job_listing_statuses: { owner: 'modules/job-listings', migration: '0033_published_views.sql' },
  candidate_summaries: { owner: 'modules/candidates', migration: '0030_candidate_summaries_view.sql' },
  candidate_file_texts: { owner: 'modules/documents', migration: '0039_candidate_search_file_words.sql' },
  candidate_search_vectors: { owner: 'modules/candidates', migration: '0046_candidate_search_vectors_view.sql' },
};

const SQL_NAMING = /\b(?:from|join|into|update|table|truncate|lock)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;

const problems: string[] = [];
const rel = (file: string) => relative(ROOT, file).split(sep).join('/');

function sourceFiles(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[])
    .map((name) => join(folder, name))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
}

/** The folder (relative to src/, e.g. modules/candidates) a file belongs to, if a module's or infra's. */
function folderOf(file: string): string | undefined {
  const parts = relative(SRC, file).split(sep);
  return (parts[0] === 'modules' || parts[0] === 'infra') && parts.length > 2 ? `${parts[0]}/${parts[1]}` : undefined;
}

// --- who owns what ---------------------------------------------------------------------------------
const owner = new Map<string, string>(); // table -> folder
const tableObjects = new Map<string, Set<string>>(); // folder -> names of the table objects its tables.ts exports
for (const kind of ['modules', 'infra']) {
  for (const entry of readdirSync(join(SRC, kind), { withFileTypes: true }).filter((e) => e.isDirectory())) {
    const folder = `${kind}/${entry.name}`;
    const tablesFile = join(SRC, folder, 'tables.ts');
    if (!existsSync(tablesFile)) continue;
    const text = readFileSync(tablesFile, 'utf8');
    const objects = new Set<string>();
    for (const [, name, table] of text.matchAll(/export const (\w+)\s*=\s*pg(?:Table|View|MaterializedView)\(\s*['"]([a-z0-9_]+)['"]/g)) {
      objects.add(name);
      if (owner.has(table)) problems.push(`table ${table} is defined by both ${owner.get(table)} and ${folder}`);
      owner.set(table, folder);
    }
    tableObjects.set(folder, objects);
  }
}
for (const [table, { owner: folder }] of Object.entries(NO_DRIZZLE)) {
  if (owner.has(table)) problems.push(`table ${table} has a Drizzle definition in ${owner.get(table)}: remove it from NO_DRIZZLE`);
  owner.set(table, folder);
}

// Every table and view the migrations leave must have its owner here.
const created = new Map<string, 'table' | 'view'>();
for (const name of readdirSync(MIGRATIONS).filter((n) => n.endsWith('.sql')).sort()) {
  const text = readFileSync(join(MIGRATIONS, name), 'utf8').replace(/--.*$/gm, '');
  for (const [, what, table] of text.matchAll(/\bcreate\s+(?:or\s+replace\s+)?(?:unlogged\s+)?(table|view)\s+(?:if\s+not\s+exists\s+)?"?([a-z0-9_]+)"?/gi)) {
    created.set(table.toLowerCase(), what.toLowerCase() as 'table' | 'view');
  }
  for (const [, table] of text.matchAll(/\bdrop\s+(?:table|view)\s+(?:if\s+exists\s+)?"?([a-z0-9_]+)"?/gi)) created.delete(table.toLowerCase());
}
for (const [name, what] of created) {
  if (what === 'table' && !owner.has(name)) problems.push(`table ${name} (a migration creates it) has no owner: define it in a tables.ts or add it to NO_DRIZZLE`);
  if (what === 'view' && !VIEWS[name]) problems.push(`view ${name} (a migration creates it) has no owner: add it to VIEWS`);
}
for (const [view, { owner: folder, migration }] of Object.entries(VIEWS)) {
  if (created.get(view) !== 'view') problems.push(`view ${view} is listed in VIEWS but no migration creates it (expected in ${migration})`);
  const readme = join(SRC, folder, 'README.md');
  if (!existsSync(readme) || !readFileSync(readme, 'utf8').includes(view)) problems.push(`view ${view} is not documented in src/${folder}/README.md`);
}

// --- who names what -----------------------------------------------------------------------------------
function literalTexts(source: ts.SourceFile): Array<{ text: string; line: number }> {
  const found: Array<{ text: string; line: number }> = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      // `{ table: 'events', ... }` names a table for src/db/delete-batch.ts.
      const named = ts.isStringLiteral(node) && ts.isPropertyAssignment(node.parent) && node.parent.name.getText(source) === 'table';
      found.push({ text: named ? `table ${node.text}` : node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

let scanned = 0;
for (const file of sourceFiles(SRC)) {
  const path = rel(file);
  if (OUT_OF_SCOPE.some((prefix) => path.startsWith(prefix))) continue;
  scanned += 1;
  const folder = folderOf(file);
  const who = folder ?? 'code outside src/modules and src/infra';
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

  for (const { text, line } of literalTexts(source)) {
    for (const [, name] of text.matchAll(SQL_NAMING)) {
      const table = name.toLowerCase();
      if (VIEWS[table] || !owner.has(table) || owner.get(table) === folder) continue;
      problems.push(`${path}:${line}: ${who} names ${owner.get(table)}'s table ${table} in SQL`);
    }
  }

  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const spec = statement.moduleSpecifier;
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
    const target = resolve(dirname(file), spec.text);
    const targetFolder = folderOf(target);
    if (!targetFolder || targetFolder === folder) continue;
    const line = source.getLineAndCharacterOfPosition(statement.getStart(source)).line + 1;
    if (target.endsWith(`${sep}tables.ts`)) {
      problems.push(`${path}:${line}: ${who} imports ${targetFolder}'s tables.ts`);
      continue;
    }
    const objects = tableObjects.get(targetFolder) ?? new Set<string>();
    const clause = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
    if (clause && (ts.isNamedImports(clause) || ts.isNamedExports(clause))) {
      for (const element of clause.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (objects.has(imported)) problems.push(`${path}:${line}: ${who} imports ${targetFolder}'s table object ${imported}`);
      }
    }
  }
}

if (problems.length > 0) {
  console.error(`Table ownership (each table named only by its module; see scripts/check-table-ownership.ts):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`table ownership: ${owner.size} tables and ${Object.keys(VIEWS).length} views, ${scanned} files, each names only its own`);
