// Part of `npm run verify`: no two domain modules depend on each other, directly or through others.
// eslint's import-x/no-cycle catches cycles between files; this catches them between the folders
// of src/modules (applications -> candidates -> applications through different files). routes.ts
// files are left out: nothing imports a route plugin but src/app.ts, so a route calling another
// module's service creates no cycle anyone could load into.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MODULES = fileURLToPath(new URL('../src/modules', import.meta.url));
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

const moduleOf = (file: string) => {
  const rel = relative(MODULES, file);
  return rel.startsWith('..') ? undefined : rel.split(sep)[0];
};

const edges = new Map<string, Map<string, string>>(); // module -> (module it uses -> an example file)
for (const module of readdirSync(MODULES, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
  const folder = join(MODULES, module.name);
  edges.set(module.name, new Map());
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts') || name === 'routes.ts') continue;
    const file = join(folder, name);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = moduleOf(resolve(dirname(file), spec));
      if (target && target !== module.name) edges.get(module.name)!.set(target, relative(MODULES, file));
    }
  }
}

const cycles: string[] = [];
const state = new Map<string, 'open' | 'done'>();
function visit(module: string, path: string[]): void {
  state.set(module, 'open');
  for (const next of edges.get(module)?.keys() ?? []) {
    if (state.get(next) === 'open') {
      const cycle = [...path.slice(path.indexOf(next)), next];
      cycles.push(cycle.map((m, i) => (i < cycle.length - 1 ? `${m} (${edges.get(m)!.get(cycle[i + 1])})` : m)).join(' -> '));
    } else if (!state.has(next)) visit(next, [...path, next]);
  }
  state.set(module, 'done');
}
for (const module of edges.keys()) if (!state.has(module)) visit(module, [module]);

if (cycles.length > 0) {
  console.error(`Module dependency cycles (src/modules, routes.ts aside):\n${cycles.map((c) => `  ${c}`).join('\n')}`);
  process.exit(1);
}
console.log(`module graph: ${edges.size} modules, no cycles`);
