// Builds the package: src/*.ts -> dist/*.js (ESM) and dist/*.d.ts, from a clean dist (a renamed or
// removed source leaves nothing behind). Plain JavaScript so any Node that runs npm runs it
// (`npm pack` builds through prepack, on whatever Node the machine has).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SDK = fileURLToPath(new URL('.', import.meta.url));
const DIST = join(SDK, 'dist');

rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(join(SDK, 'package.json')).resolve('typescript/bin/tsc');
const run = spawnSync(process.execPath, [tsc, '-p', SDK], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

// rewriteRelativeImportExtensions rewrites `./x.ts` in the JavaScript only; declarations keep it,
// which TypeScript before 5.0 and some tools refuse. The declarations point at `./x.js` too.
for (const name of readdirSync(DIST)) {
  if (!name.endsWith('.d.ts')) continue;
  const file = join(DIST, name);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/(from\s+['"]\.{1,2}\/[^'"]+)\.ts(['"])/g, '$1.js$2'));
}
console.log('sdk: built dist/ (ESM JavaScript and declarations)');
