// Issue 9 item 11: processes taking over the same stale lock of the embedded data directory at the
// same moment; exactly one may win, every time.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir } from '../../src/db/embedded-lock.ts';
import { childEnv } from '../helpers/child-env.ts';

const CONTENDER = fileURLToPath(new URL('../helpers/lock-contender.ts', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recruiting-lock-'));
  dirs.push(dir);
  return dir;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '0']);
  return child.pid!;
}

function lines(child: ChildProcess): AsyncIterator<string> {
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    let index;
    while ((index = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, index);
      buffer = buffer.slice(index + 1);
      const next = waiting.shift();
      if (next) next(line);
      else queue.push(line);
    }
  });
  return {
    next: () =>
      new Promise((resolve) => {
        const line = queue.shift();
        if (line !== undefined) resolve({ value: line, done: false });
        else waiting.push((value) => resolve({ value, done: false }));
      }),
  };
}

async function race(dataDir: string, contenders: number): Promise<string[]> {
  const children = Array.from({ length: contenders }, () =>
    spawn(process.execPath, [CONTENDER, dataDir], { env: childEnv({}), stdio: ['pipe', 'pipe', 'inherit'] }),
  );
  const outputs = children.map(lines);
  try {
    for (const output of outputs) expect((await output.next()).value).toBe('ready');
    for (const child of children) child.stdin!.write('go\n');
    const results: string[] = [];
    for (const output of outputs) results.push((await output.next()).value as string);
    return results;
  } finally {
    for (const child of children) child.stdin!.end();
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.on('exit', resolve)))));
  }
}

describe('embedded data directory lock', () => {
  it('lets exactly one of many processes take over a stale lock, every time', async () => {
    for (let trial = 0; trial < 4; trial++) {
      const dataDir = tempDir();
      writeFileSync(join(dataDir, 'recruiting.lock'), String(deadPid()));
      const results = await race(dataDir, 6);
      expect(results.filter((r) => r === 'won'), results.join(',')).toHaveLength(1);
      expect(results.filter((r) => r === 'locked')).toHaveLength(5);
      // No candidate files or takeover markers are left behind (the winner exited holding the lock).
      expect(readdirSync(dataDir)).toEqual(['recruiting.lock']);
    }
  }, 240_000);

  it('leaves a stale lock to the live process that is taking it over', () => {
    const dataDir = tempDir();
    const stale = String(deadPid());
    writeFileSync(join(dataDir, 'recruiting.lock'), stale);
    // A live process (the parent of this test worker) holds the takeover marker for that lock.
    writeFileSync(join(dataDir, `recruiting.lock.takeover-${stale}`), String(process.ppid));
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    expect(readFileSync(join(dataDir, 'recruiting.lock'), 'utf8')).toBe(stale);
  });

  it('takes a free lock, refuses while held by a live process, and releases only its own', async () => {
    const dataDir = tempDir();
    const release = lockDataDir(dataDir);
    expect(readFileSync(join(dataDir, 'recruiting.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(existsSync(join(dataDir, 'recruiting.lock'))).toBe(false);

    // A live process (the parent of this test worker) holds it.
    writeFileSync(join(dataDir, 'recruiting.lock'), String(process.ppid));
    expect(() => lockDataDir(dataDir)).toThrow(DataDirLockedError);
    expect(readFileSync(join(dataDir, 'recruiting.lock'), 'utf8')).toBe(String(process.ppid));

    // A stale lock is taken over in place; a stale takeover marker does not block anyone.
    writeFileSync(join(dataDir, 'recruiting.lock'), String(deadPid()));
    writeFileSync(join(dataDir, `recruiting.lock.takeover-${readFileSync(join(dataDir, 'recruiting.lock'), 'utf8')}`), String(deadPid()));
    const again = lockDataDir(dataDir);
    expect(readFileSync(join(dataDir, 'recruiting.lock'), 'utf8')).toBe(String(process.pid));
    // Someone else's lock (taken over after ours, say) is not removed by our release.
    writeFileSync(join(dataDir, 'recruiting.lock'), String(process.ppid));
    again();
    expect(readFileSync(join(dataDir, 'recruiting.lock'), 'utf8')).toBe(String(process.ppid));
  });
});
