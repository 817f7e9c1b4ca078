// The operator CLI on the same database as an app under test: PostgreSQL (this file's own
// database) when DATABASE_URL is set, else a fresh embedded data directory, which the test opens
// only while no CLI command runs (the directory's lock). Commands run in this process (runCli, the
// function the entry file calls); what needs a real process runs one: the entry file itself, and
// the data directory's lock between processes.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.ts';
import { openDatabase } from '../../src/db/client.ts';
import { readMigrations } from '../../src/db/migrate.ts';
import { childEnv } from '../helpers/child-env.ts';
import { startReceiver } from '../webhooks/receiver.ts';
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/test-app.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const usingPostgres = Boolean(process.env.DATABASE_URL);

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command line in this process, with only the given settings (no process.env). */
async function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { LOG_LEVEL: 'silent', ...env },
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

/** Runs `node src/cli.ts ...args` (process.execPath is the project's Node 24) and waits for it. */
function cliProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: childEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Runs the CLI and parses its JSON output, failing the test with stderr if it did not succeed. */
async function cliJson(
  args: string[],
  env: Record<string, string>,
  run: typeof cli = cli,
): Promise<Record<string, unknown>> {
  const result = await run(args, env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

let shared: TestApp | undefined; // PostgreSQL: one app on this file's database, beside the CLI
let target: Record<string, string>; // the environment that points the CLI at that database
let dataDir: string | undefined;

beforeAll(async () => {
  if (usingPostgres) {
    shared = await buildTestApp();
    target = { DATABASE_URL: shared.databaseUrl! };
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'recruiting-cli-'));
    target = { DATA_DIR: dataDir, DATABASE_URL: '' };
  }
});

afterAll(async () => {
  await shared?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** An app on the CLI's database. Embedded: opened only for fn, so the CLI can take the lock after. */
async function withApp<T>(fn: (t: TestApp) => Promise<T>): Promise<T> {
  if (shared) return fn(shared);
  const t = await buildTestApp({}, { dataDir });
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

function getEnums(t: TestApp, apiKey: string) {
  return t.app.inject({ method: 'GET', url: '/public/v1/enums', headers: { 'x-api-key': apiKey } });
}

// Each command opens (and on a new embedded directory, migrates) the database anew, as the real
// CLI does: on a busy machine that is slow, so these tests get more than the default 30 s.
const SLOW = { timeout: 180_000 };

describe('operator CLI', SLOW, () => {
  it('migrates, creates a company and a key that works over HTTP, lists it, and revokes it for the next request', async () => {
    // Embedded: a new directory, so every migration is applied; PostgreSQL: a copy of the migrated template.
    const allMigrations = readMigrations().map((migration) => migration.name);
    expect(await cliJson(['migrate'], target)).toEqual({ applied: usingPostgres ? [] : allMigrations });

    const company = await cliJson(['company', 'create', '--name', 'Acme Recruiting', '--default-language', 'de'], target);
    expect(company).toMatchObject({ name: 'Acme Recruiting', defaultLanguage: 'de', requiresListingReview: false });
    expect(company.id).toMatch(/^[0-9a-f-]{36}$/);
    const companyId = company.id as string;

    const key = await cliJson(
      ['api-key', 'create', '--company', companyId, '--scopes', 'jobs:read,applications:read', '--label', 'ATS sync'],
      target,
    );
    expect(key).toMatchObject({ label: 'ATS sync', scopes: ['jobs:read', 'applications:read'], active: true, lastUsedAt: null });
    expect(key.rawKey).toMatch(/^rk_live_[0-9A-Za-z]{38}$/);
    expect(key.keyPrefix).toBe((key.rawKey as string).slice(0, 12));
    const rawKey = key.rawKey as string;

    await withApp(async (t) => expect((await getEnums(t, rawKey)).statusCode).toBe(200));

    const listed = (await cliJson(['api-key', 'list', '--company', companyId], target)) as unknown as Array<
      Record<string, unknown>
    >;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: key.id, label: 'ATS sync', active: true });
    expect(listed[0].lastUsedAt).not.toBeNull();
    expect(listed[0]).not.toHaveProperty('rawKey');

    const revoked = await cliJson(['api-key', 'revoke', '--id', key.id as string], target);
    expect(revoked).toMatchObject({ id: key.id, active: false });

    await withApp(async (t) => {
      const res = await getEnums(t, rawKey);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/revoked/);
    });
  });

  it('explains refused input on stderr with a non-zero exit and prints nothing on stdout', async () => {
    const company = await cliJson(['company', 'create', '--name', 'Second Co'], target);
    const badKey = await cli(
      ['api-key', 'create', '--company', company.id as string, '--scopes', 'jobs:read,jobs:fly', '--label', 'x', '--expires-at', '2001-01-01T00:00:00Z'],
      target,
    );
    expect(badKey.code).toBe(1);
    expect(badKey.stdout).toBe('');
    expect(badKey.stderr).toContain('scopes[1]: unknown scope "jobs:fly"');
    expect(badKey.stderr).toContain('expiresAt: must be in the future');

    const unknownKey = await cli(['api-key', 'revoke', '--id', '00000000-0000-4000-8000-000000000000'], target);
    expect(unknownKey.code).toBe(1);
    expect(unknownKey.stderr).toMatch(/API key not found/);

    const unknownCompany = await cli(['api-key', 'list', '--company', '00000000-0000-4000-8000-000000000000'], target);
    expect(unknownCompany.code).toBe(1);
    expect(unknownCompany.stderr).toMatch(/Company not found/);
  });

  it('refuses wrong arguments with exit code 2, the reason and the usage line', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /Operator commands/],
      [['company', 'delete'], /unknown command "company delete"/],
      [['company', 'create'], /--name is required[\s\S]*Usage: .*company create --name NAME/],
      [['company', 'create', '--nme', 'Typo'], /Unknown option '--nme'/],
      [['company', 'create', '--name'], /argument missing/],
      [['company', 'create', '--name', 'A', 'extra'], /Unexpected argument 'extra'/],
      [['api-key', 'create', '--company', 'acme', '--scopes', 'jobs:read', '--label', 'x'], /--company must be an id/],
      [['api-key', 'create', '--company', '00000000-0000-4000-8000-000000000000', '--label', 'x'], /--scopes is required/],
      [['api-key', 'revoke'], /--id is required/],
    ];
    // None of these opens the database, so they run side by side.
    const results = await Promise.all(cases.map(([args]) => cli(args, target)));
    results.forEach((result, index) => {
      expect(result.code, cases[index][0].join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(cases[index][1]);
    });
  });

  it('prints help listing every command on stdout', async () => {
    const result = await cli(['help'], target);
    expect(result.code).toBe(0);
    for (const command of ['company create', 'api-key create', 'api-key revoke', 'api-key list', 'migrate']) {
      expect(result.stdout).toContain(`cli -- ${command}`);
    }
  });

  it('runs as a process: src/cli.ts prints JSON on stdout and exits 0, or explains on stderr and exits 2', async () => {
    const company = await cliJson(['company', 'create', '--name', 'Process Co'], target, cliProcess);
    expect(company).toMatchObject({ name: 'Process Co' });
    const wrong = await cliProcess(['company', 'create'], target);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/--name is required/);
  });
});

describe.skipIf(usingPostgres)('CLI on the embedded data directory', SLOW, () => {
  it('fails at once, naming the holding process, while another process has the directory open', async () => {
    const holder = await openDatabase({ dataDir });
    try {
      const refused = await cliProcess(['migrate'], target);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
    } finally {
      await holder.close();
    }
    expect(existsSync(join(dataDir!, 'recruiting.lock'))).toBe(false);
  });

  it('takes over the lock of a process that died without releasing it', async () => {
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid; // exited, like a killed server
    writeFileSync(join(dataDir!, 'recruiting.lock'), String(deadPid));
    expect(await cliJson(['migrate'], target, cliProcess)).toEqual({ applied: [] });
    expect(existsSync(join(dataDir!, 'recruiting.lock'))).toBe(false);
  });
});

describe('operator CLI: member invite', () => {
  it('invites a person; signing in with that address joins the company with the role', async () => {
    const company = await cliJson(['company', 'create', '--name', 'Inviting Co'], target);
    const invitation = await cliJson(
      ['member', 'invite', '--company', company.id as string, '--email', 'New.Hire@Example.com', '--role', 'MEMBER'],
      target,
    );
    expect(invitation).toMatchObject({ email: 'new.hire@example.com', role: 'MEMBER', invitedBy: null });

    const bad = await cli(['member', 'invite', '--company', company.id as string, '--email', 'x@example.com', '--role', 'OWNER'], target);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('role: must be one of ADMIN, MEMBER');
    const missing = await cli(['member', 'invite', '--company', company.id as string, '--email', 'x@example.com'], target);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--role is required/);

    await withApp(async (t) => {
      const { signInVerifiedUser } = await import('../../src/modules/users/service.ts');
      const signedIn = await signInVerifiedUser(t.ctx, { email: 'new.hire@example.com', emailVerified: true });
      expect(signedIn.membership).toMatchObject({ companyId: company.id, role: 'MEMBER' });
    });
    // Four CLI processes, each loading the database: slow on a busy machine.
  }, 120_000);
});

describe('operator CLI: webhooks deliver', () => {
  it('fans out pending events and sends what is due in one pass, then exits', async () => {
    const receiver = await startReceiver();
    try {
      await withApp(async (t) => {
        const tenant = await t.tenant();
        const subscribe = await t.app.inject({
          method: 'POST',
          url: '/public/v1/webhooks',
          headers: tenant.headers,
          payload: { url: `${receiver.origin}/hook`, events: ['job_listing.created'] },
        });
        expect(subscribe.statusCode).toBe(201);
        const created = await t.app.inject({
          method: 'POST',
          url: '/public/v1/job-listings',
          headers: tenant.headers,
          payload: { position: 'Cook', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' },
        });
        expect(created.statusCode).toBe(201);
      });
      const env = { ...target, WEBHOOK_ALLOW_LOCAL: 'true', ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
      const pass = await cliJson(['webhooks', 'deliver'], env);
      expect(pass.dispatched).toBeGreaterThanOrEqual(1);
      expect(pass.attempted).toBeGreaterThanOrEqual(1);
      const hooks = receiver.requests.filter((request) => request.path === '/hook');
      expect(hooks).toHaveLength(1);
      expect(JSON.parse(hooks[0].body)).toMatchObject({ type: 'job_listing.created' });
      // Nothing is due any more: a second pass sends nothing.
      expect(await cliJson(['webhooks', 'deliver'], env)).toMatchObject({ attempted: 0 });
      expect(receiver.requests.filter((request) => request.path === '/hook')).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
