// The embedded database's files are its owner's alone, whatever umask the process starts with:
// the real CLI in child processes started under umask 000 (as in many containers) creates a
// database, opens one an older release left world-readable, backs it up and restores it; every
// directory under DATA_DIR is then 0700 and every file 0600, the restored key file included.
import { execFile } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/child-env.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

/** The CLI as a process started under umask 000 runs it. */
function cli(args: string[], dataDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, CLI, ...args],
      { env: childEnv({ DATA_DIR: dataDir, DATABASE_URL: '', ENCRYPTION_KEY: '' }) },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every path under `dir` (itself included) whose mode is not 0700 (directories) or 0600 (files). */
function wrongModes(dir: string): { checked: number; wrong: string[] } {
  const wrong: string[] = [];
  let checked = 0;
  const visit = (path: string) => {
    const stat = lstatSync(path);
    const mode = stat.mode & 0o777;
    checked += 1;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600)) wrong.push(`${relative(dir, path) || '.'} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return { checked, wrong };
}

/** As a release before this check left a directory under umask 000. */
function loosen(dir: string): void {
  const visit = (path: string) => {
    const directory = lstatSync(path).isDirectory();
    chmodSync(path, directory ? 0o777 : 0o666);
    if (directory) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
}

describe.skipIf(Boolean(process.env.DATABASE_URL))('modes of the embedded data directory under umask 000', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'recruiting-modes-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a new database, an old one opened again, a backup and its restore: directories 0700, files 0600', async () => {
    const dataDir = join(dir, 'data');
    const created = await cli(['company', 'create', '--name', 'Modes'], dataDir);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const fresh = wrongModes(dataDir);
    expect(fresh.checked).toBeGreaterThan(100); // the whole database, WAL and key file included
    expect(fresh.wrong).toEqual([]);
    expect(lstatSync(join(dataDir, 'encryption.key')).mode & 0o777).toBe(0o600);

    // A directory an older release left open to everyone is closed when it is next opened.
    loosen(dataDir);
    const out = join(dir, 'backup.tar.gz');
    const backup = await cli(['backup', '--out', out], dataDir);
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(wrongModes(dataDir).wrong).toEqual([]);
    expect(lstatSync(out).mode & 0o777).toBe(0o600);

    // The archive holds the loosened modes: the restore does not bring them back.
    const restoredDir = join(dir, 'restored');
    const restored = await cli(['restore', '--in', out], restoredDir);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const after = wrongModes(restoredDir);
    expect(after.checked).toBeGreaterThan(100);
    expect(after.wrong).toEqual([]);
    expect(lstatSync(join(restoredDir, 'encryption.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(restoredDir, 'encryption.key'), 'utf8')).toBe(readFileSync(join(dataDir, 'encryption.key'), 'utf8'));
  }, 240_000);
});
