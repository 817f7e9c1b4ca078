// The CLI's `company list`, `--help` on every command and command group, and a closed pipe on its
// output (`... | head -1`): no stack trace, the command's own exit code.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { childEnv } from '../helpers/child-env.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));

async function cli(args: string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

/** The command names, from the help text (every line `npm run -s cli -- <name> ...`). */
async function commandNames(): Promise<string[]> {
  const { stdout } = await cli(['--help']);
  return [...stdout.matchAll(/^ {2}npm run -s cli -- (\S+(?: [a-z][\w-]*)?)/gm)].map((match) => match[1]);
}

// PostgreSQL when DATABASE_URL is set (the CLI makes its own tables there), else an embedded directory.
let dataDir: string;
const env = (): Record<string, string> => (process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: dataDir });
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cli-commands-'));
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('CLI commands', () => {
  it('answers --help on every command, with its usage line, without touching the database', async () => {
    const names = await commandNames();
    expect(names).toContain('company list');
    expect(names.length).toBeGreaterThanOrEqual(10);
    for (const name of names) {
      const result = await cli([...name.split(' '), '--help'], { DATA_DIR: '/nonexistent/never-opened' });
      expect(result.code, name).toBe(0);
      expect(result.stdout, name).toContain(`npm run -s cli -- ${name}`);
      expect(result.stderr, name).toBe('');
    }
  });

  it('answers --help on a command group with its commands', async () => {
    const result = await cli(['company', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('company create');
    expect(result.stdout).toContain('company list');
    const missing = await cli(['company']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('company list');
  });

  it('company list: the companies, newest first, in pages', async () => {
    const made: string[] = [];
    for (const name of ['Alpha GmbH', 'Beta Ltd']) {
      const result = await cli(['company', 'create', '--name', name], env());
      expect(result.code, result.stderr).toBe(0);
      made.push(JSON.parse(result.stdout).id);
    }
    const all = await cli(['company', 'list', '--size', '1000'], env());
    expect(all.code, all.stderr).toBe(0);
    const listed = JSON.parse(all.stdout) as { data: Array<{ id: string; name: string }>; pagination: { totalElements: number } };
    const ours = listed.data.filter((company) => made.includes(company.id));
    expect(ours.map((company) => company.name)).toEqual(['Beta Ltd', 'Alpha GmbH']);
    const page = JSON.parse((await cli(['company', 'list', '--size', '1', '--page', '1'], env())).stdout);
    expect(page.data).toHaveLength(1);
    expect(page.pagination).toMatchObject({ page: 1, size: 1 });
    const wrong = await cli(['company', 'list', '--size', '0'], env());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--size must be a whole number from 1 to 1000');
  }, 180_000);

  it('company board: sets the slug and turns the board on; refuses a reserved slug', async () => {
    const created = await cli(['company', 'create', '--name', 'Board GmbH'], env());
    const id = JSON.parse(created.stdout).id as string;
    const slug = `board-${Date.now().toString(36)}`;
    const on = await cli(['company', 'board', '--company', id, '--slug', slug, '--enabled', 'true'], env());
    expect(on.code, on.stderr).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ slug, enabled: true });
    const reserved = await cli(['company', 'board', '--company', id, '--slug', 'admin'], env());
    expect(reserved.code).not.toBe(0);
    expect(reserved.stderr).toContain('reserved');
  }, 180_000);

  it('a closed reading end of its output (| head -1) ends quietly: no stack trace, exit 0', async () => {
    const child = spawn(process.execPath, [CLI, 'company', 'list'], { env: childEnv({ LOG_LEVEL: 'silent', ...env() }) });
    // The reader goes away before the command writes (it first opens the database).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(code).toBe(0);
  }, 60_000);

  it('the same through a shell pipe into head -1', async () => {
    const child = spawn('sh', ['-c', `"${process.execPath}" "${CLI}" company list --size 1000 | head -1`], {
      env: childEnv({ LOG_LEVEL: 'silent', ...env() }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve) => child.on('close', resolve));
    expect(stdout).toBe('{\n');
    expect(stderr).toBe('');
  }, 60_000);
});
