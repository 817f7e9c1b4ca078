// Part of `npm run verify`: no import cycles, at two levels.
// - Files: no static import cycle between any two source files of src/, scripts/ and bench/
//   (`import type` aside: it is erased before anything runs; dynamic `import()` aside: the CLI uses
//   it to load a command's code lazily, after every module has loaded).
// - Domain modules: no two folders of src/modules depend on each other, directly or through others
//   (applications -> candidates -> applications through different files), routes.ts included: a
//   module's routes are part of the module, so a candidate route answering with applications makes
//   candidates depend on applications, and belongs in the applications module instead.
// A small script rather than eslint-plugin-import-x: that plugin's resolver ships per-platform
// native bindings that npm cannot record in the lock file here, so `npm ci` would fail.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODULES = join(ROOT, 'src', 'modules');
const STATIC_IMPORT = /^(?:import|export)\s+(type\s+)?[^;]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;
const ANY_IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

type Graph = Map<string, Map<string, string>>; // node -> (node it uses -> an example file)

function sourceFiles(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[])
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join(folder, name));
}

function findCycles(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, path: string[]): void => {
    state.set(node, 'open');
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') cycles.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...path, next]);
    }
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node, [node]);
  return cycles;
}

const files: Graph = new Map();
for (const file of ['src', 'scripts', 'bench'].flatMap((folder) => sourceFiles(join(ROOT, folder)))) {
  const uses = new Map<string, string>();
  for (const [, typeOnly, spec] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
    if (!typeOnly) uses.set(resolve(dirname(file), spec), relative(ROOT, file));
  }
  files.set(file, uses);
}

const modules: Graph = new Map();
const moduleOf = (file: string) => {
  const rel = relative(MODULES, file);
  return rel.startsWith('..') ? undefined : rel.split(sep)[0];
};
for (const module of readdirSync(MODULES, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
  const uses = new Map<string, string>();
  for (const file of sourceFiles(join(MODULES, module.name))) {
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(ANY_IMPORT)) {
      const target = moduleOf(resolve(dirname(file), spec));
      if (target && target !== module.name) uses.set(target, relative(MODULES, file));
    }
  }
  modules.set(module.name, uses);
}

const fileCycles = findCycles(files).map((cycle) => cycle.map((file) => relative(ROOT, file)).join(' -> '));
const moduleCycles = findCycles(modules).map((cycle) =>
  cycle.map((m, i) => (i < cycle.length - 1 ? `${m} (${modules.get(m)!.get(cycle[i + 1])})` : m)).join(' -> '),
);
if (fileCycles.length > 0) console.error(`Import cycles between files:\n${fileCycles.map((c) => `  ${c}`).join('\n')}`);
if (moduleCycles.length > 0) {
  console.error(`Module dependency cycles (src/modules, routes.ts included):\n${moduleCycles.map((c) => `  ${c}`).join('\n')}`);
}
if (fileCycles.length + moduleCycles.length > 0) process.exit(1);
console.log(`import graph: ${files.size} files and ${modules.size} modules, no cycles`);
