// `npm run worker` starts node with the heap limits `npm start` gives the server: without them a
// worker's heap grew as V8 pleased (RSS 147-330 MB). A module preloaded through NODE_OPTIONS
// reports, from inside the node process npm started for the worker, its flags and V8's heap limit,
// and exits before the worker does anything.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { childEnv } from '../helpers/child-env.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'recruiting-worker-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// npm's own node loads it too (NODE_OPTIONS): only the worker's process answers.
const PROBE = `
import { getHeapStatistics } from 'node:v8';
if (process.argv[1]?.endsWith('src/worker.ts')) {
  console.log('probe ' + JSON.stringify({ execArgv: process.execArgv, heapLimit: getHeapStatistics().heap_size_limit }));
  process.exit(0);
}
`;

it("`npm run worker` runs node with the server's heap limits", async () => {
  const probe = join(dir, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const child = spawn('npm', ['run', 'worker'], {
    cwd: ROOT,
    env: childEnv({ NODE_OPTIONS: `--import=${pathToFileURL(probe).href}` }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const line = output.split('\n').find((each) => each.startsWith('probe '));
  expect(line, output).toBeDefined();
  expect(code).toBe(0);
  const { execArgv, heapLimit } = JSON.parse(line!.slice('probe '.length)) as { execArgv: string[]; heapLimit: number };

  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  // The heap's flags; the server's others are for the embedded database it may run (docs/decisions.md,
  // "The embedded database's memory and first start"), which a worker never does.
  const serverFlags = scripts.start.split(/\s+/).filter((word) => word.startsWith('--max-'));
  expect(serverFlags).toContain('--max-old-space-size=256');
  expect(execArgv).toEqual(serverFlags);
  // V8's default on this kind of machine is 2-4 GB; 256 MB of old space and the young space make ~300.
  expect(heapLimit).toBeLessThan(400 * 2 ** 20);
});
