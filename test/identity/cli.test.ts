// The identity commands of the operator CLI, as real child processes on the same database as an
// app under test: OAuth clients (secret shown once, stored hashed), API key rename, key rotation.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps } from '../../src/deps.ts';
import { queryRows } from '../../src/db/client.ts';
import { childEnv } from '../helpers/child-env.ts';
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/test-app.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const usingPostgres = Boolean(process.env.DATABASE_URL);

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: childEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function cliJson(args: string[], env: Record<string, string>): Promise<Record<string, unknown>> {
  const result = await cli(args, env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

let shared: TestApp | undefined;
let target: Record<string, string>;
let dataDir: string | undefined;

beforeAll(async () => {
  if (usingPostgres) {
    shared = await buildTestApp();
    target = { DATABASE_URL: shared.databaseUrl!, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
  } else {
    dataDir = mkdtempSync(join(tmpdir(), 'recruiting-identity-cli-'));
    target = { DATA_DIR: dataDir, DATABASE_URL: '', ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
  }
});

afterAll(async () => {
  await shared?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The JWKS a server started now publishes (a new app: keys are read at start). */
async function publishedKeys(): Promise<Array<{ kid: string }>> {
  if (shared) {
    const appDeps = await buildDeps(shared.config, { database: shared.database, clock: shared.clock, secrets: shared.ctx.secrets });
    const app = await buildApp(appDeps);
    app.addHook('onClose', () => appDeps.close());
    try {
      return (await app.inject({ method: 'GET', url: '/oauth2/jwks' })).json().keys;
    } finally {
      await app.close();
    }
  }
  return withApp(async (t) => (await t.app.inject({ method: 'GET', url: '/oauth2/jwks' })).json().keys);
}

async function withApp<T>(fn: (t: TestApp) => Promise<T>): Promise<T> {
  if (shared) return fn(shared);
  const t = await buildTestApp({ DATA_DIR: dataDir! }, { dataDir });
  try {
    return await fn(t);
  } finally {
    await t.close();
  }
}

// Each command is a new Node process opening the database (the first one migrates a new embedded
// directory): slow on a loaded machine, hence the generous limit.
describe('identity commands', { timeout: 180_000 }, () => {
  it('client create prints a confidential client with its secret once; only a hash is stored; client list never shows it', async () => {
    const created = await cliJson(
      ['client', 'create', '--name', 'Partner ATS', '--redirect-uri', 'https://ats.example/cb', '--redirect-uri', 'http://localhost:8080/cb'],
      target,
    );
    expect(created).toMatchObject({
      name: 'Partner ATS',
      redirectUris: ['https://ats.example/cb', 'http://localhost:8080/cb'],
      public: false,
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    const secret = created.clientSecret as string;
    expect(secret.length).toBeGreaterThanOrEqual(40);

    const stored = await withApp((t) =>
      queryRows<{ payload: Record<string, unknown> }>(t.ctx.db, sql`select payload from oidc_payloads where kind = 'Client' and id = ${created.clientId as string}`),
    );
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect(stored[0].payload.client_secret).toBe(createHash('sha256').update(secret).digest('hex'));

    const listed = (await cliJson(['client', 'list'], target)) as unknown as Array<Record<string, unknown>>;
    expect(listed.find((c) => c.clientId === created.clientId)).toMatchObject({ name: 'Partner ATS', public: false });
    expect(JSON.stringify(listed)).not.toContain(secret);

    const publicClient = await cliJson(['client', 'create', '--name', 'Mobile', '--redirect-uri', 'com.example.app:/cb', '--public'], target);
    expect(publicClient).toMatchObject({ public: true, tokenEndpointAuthMethod: 'none' });
    expect(publicClient).not.toHaveProperty('clientSecret');
  });

  it('client create refuses a plain-http redirect URI to another host and a missing redirect URI', async () => {
    const bad = await cli(['client', 'create', '--name', 'X', '--redirect-uri', 'http://evil.example/cb'], target);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('redirectUris[0]: must be https');
    const missing = await cli(['client', 'create', '--name', 'X'], target);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--redirect-uri is required');
  });

  it('api-key rename changes the label only', async () => {
    const company = await cliJson(['company', 'create', '--name', 'Rename Co'], target);
    const key = await cliJson(['api-key', 'create', '--company', company.id as string, '--scopes', 'jobs:read', '--label', 'old'], target);
    const renamed = await cliJson(['api-key', 'rename', '--id', key.id as string, '--label', 'new label'], target);
    expect(renamed).toMatchObject({ id: key.id, label: 'new label', scopes: ['jobs:read'], active: true });
    expect(renamed).not.toHaveProperty('rawKey');
    const unknown = await cli(['api-key', 'rename', '--id', '00000000-0000-4000-8000-000000000000', '--label', 'x'], target);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/API key not found/);
  });

  it('oidc rotate-keys makes a new signing key current and keeps publishing the previous one', async () => {
    const before = await publishedKeys();
    expect(before.length).toBeGreaterThanOrEqual(1);
    const rotated = await cliJson(['oidc', 'rotate-keys'], target);
    expect(rotated.signingKeyId).not.toBe(before[0].kid);
    expect(rotated.keptSigningKeyIds).toEqual([rotated.signingKeyId, ...before.map((k) => k.kid)].slice(0, 3));
    // A server started after the rotation (withApp builds a new app) signs with the new key and
    // still publishes the old one, so ID tokens signed before the rotation verify.
    const after = await publishedKeys();
    expect(after.map((k) => k.kid)).toEqual(rotated.keptSigningKeyIds);
  });
});
