// Secrets at rest. First the whole database, dumped after every kind of secret was made (webhook
// secret, API key, OAuth client secret, authorization code, access and refresh tokens, session, and
// the answers replayed for an Idempotency-Key that carried some of them): none is found in clear.
// Then webhook signing secrets: sealed with AES-256-GCM under ENCRYPTION_KEY (or the key file in
// DATA_DIR); deliveries still verify with the secret the API showed, after a rotation of the
// subscription's secret, after clear rows are sealed, and after a rotation of the encryption key
// itself (the CLI, as a child process).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { recordTestEvent } from '../helpers/events.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createClient } from '../../src/modules/oauth/clients.ts';
import { resealSigningSecrets } from '../../src/modules/webhooks/service.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { createSecretBox, generateEncryptionKey, parseEncryptionKey } from '../../src/shared/secret-box.ts';
import { childEnv } from '../helpers/child-env.ts';
import { buildTestApp, TEST_ENCRYPTION_KEY, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type ReceivedRequest, type Receiver } from '../webhooks/receiver.ts';
import { signInAndGetTokens } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

let transport: WebhookTransport;
let receiver: Receiver;

beforeAll(async () => {
  transport = createWebhookTransport({ allowLocal: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await transport.close();
  await receiver.close();
});

async function subscribe(t: TestApp, tenant: Tenant, path: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/webhooks',
    headers: tenant.headers,
    payload: { url: `${receiver.origin}${path}`, events: ['job_listing.updated'] },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string; secret: string };
}

/** Records an event, runs the worker once, and returns what the receiver got at `path`. */
async function deliverOne(t: TestApp, tenant: Tenant, path: string, secrets = t.ctx.secrets): Promise<ReceivedRequest> {
  const before = receiver.requests.filter((r) => r.path === path).length;
  await t.ctx.db.transaction((tx) =>
    recordTestEvent(tx, { companyId: tenant.companyId, type: 'job_listing.updated', data: { n: before }, occurredAt: t.clock.now() }),
  );
  await runWebhookWorkerOnce({ db: t.ctx.db, clock: t.clock, secrets, transport, log: silentLog, leaseMs: 60_000, concurrency: 5 });
  const received = receiver.requests.filter((r) => r.path === path);
  expect(received).toHaveLength(before + 1);
  return received[before]!;
}

function verifies(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

async function storedSecrets(t: TestApp, id: string) {
  const [row] = await queryRows<{ secret: string; previous_secret: string | null }>(
    t.ctx.db,
    sql`SELECT secret, previous_secret FROM webhook_subscriptions WHERE id = ${id}`,
  );
  return row!;
}

async function clearSecretsInDatabase(t: TestApp): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.ctx.db,
    sql`SELECT count(*)::int AS n FROM webhook_subscriptions s WHERE s::text LIKE '%whsec_%'`,
  );
  return row!.n;
}

/** Every row of every table of the database, as text (each column's text form). */
async function dumpDatabase(t: TestApp): Promise<Array<{ table: string; row: string }>> {
  const tables = await queryRows<{ schema: string; name: string }>(
    t.ctx.db,
    sql`SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
  );
  expect(tables.map((table) => table.name)).toEqual(expect.arrayContaining(['oidc_payloads', 'idempotency_keys', 'api_keys']));
  const rows: Array<{ table: string; row: string }> = [];
  for (const { schema, name } of tables) {
    const found = await queryRows<{ row: string }>(
      t.ctx.db,
      sql`SELECT row_to_json(r)::text AS row FROM ${sql.identifier(schema)}.${sql.identifier(name)} AS r`,
    );
    for (const { row } of found) rows.push({ table: name, row });
  }
  return rows;
}

describe('the whole database holds no secret in clear', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp();
  });
  afterAll(async () => t?.close());

  async function post(path: string, headers: Record<string, string>, body: unknown, key: string) {
    const response = await fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });
    return { status: response.status, replayed: response.headers.get('idempotent-replayed'), body: await response.text() };
  }

  it('after making every kind of secret, and replaying the answers that carried some of them', { timeout: 60_000 }, async () => {
    const secrets: Record<string, string> = {};
    // Sign-in of the dashboard (first party): its code, tokens and the browser's session.
    const dashboard = await signInAndGetTokens({
      issuer: t.issuer,
      clientId: 'dashboard',
      redirectUri: t.dashboardRedirect,
      scope: 'openid profile email',
      email: `owner-${randomUUID().slice(0, 8)}@example.com`,
    });
    secrets['authorization code'] = dashboard.callback.searchParams.get('code')!;
    secrets['access token'] = dashboard.tokens.access_token;
    secrets['refresh token'] = dashboard.tokens.refresh_token!;
    secrets['session cookie'] = dashboard.browser.cookie('_session')!;
    const refreshed = await oidc.refreshTokenGrant(dashboard.config, dashboard.tokens.refresh_token!);
    secrets['access token (refreshed)'] = refreshed.access_token;
    secrets['refresh token (rotated)'] = refreshed.refresh_token!;
    const bearer = { authorization: `Bearer ${refreshed.access_token}` };

    // A third-party confidential client, its consent, code and tokens.
    const client = await createClient(t.ctx, { name: 'Partner', redirectUris: [`${t.baseUrl}/partner/callback`], public: false });
    secrets['client secret'] = client.clientSecret!;
    const partner = await signInAndGetTokens({
      issuer: t.issuer,
      clientId: client.clientId,
      clientSecret: client.clientSecret!,
      redirectUri: `${t.baseUrl}/partner/callback`,
      scope: 'openid offline_access jobs:read',
      email: `partner-user-${randomUUID().slice(0, 8)}@example.com`,
      consent: 'approve',
    });
    secrets['authorization code (third party)'] = partner.callback.searchParams.get('code')!;
    secrets['access token (third party)'] = partner.tokens.access_token;
    secrets['refresh token (third party)'] = partner.tokens.refresh_token!;
    secrets['session cookie (third party)'] = partner.browser.cookie('_session')!;

    // An API key and a webhook secret, each made with an Idempotency-Key and replayed.
    const key = await post('/settings/api-keys', bearer, { label: 'at rest', scopes: ['jobs:read'] }, 'rest-key-1');
    expect(key.status, key.body).toBe(201);
    secrets['API key'] = (JSON.parse(key.body) as { rawKey: string }).rawKey;
    const apiKeyHeaders = { 'x-api-key': secrets['API key'] };
    const tenant = await t.tenant();
    const hook = await post('/public/v1/webhooks', tenant.headers, { url: `${receiver.origin}/at-rest`, events: ['job_listing.updated'] }, 'rest-hook-1');
    expect(hook.status, hook.body).toBe(201);
    secrets['webhook secret'] = (JSON.parse(hook.body) as { secret: string }).secret;
    const keyReplay = await post('/settings/api-keys', bearer, { label: 'at rest', scopes: ['jobs:read'] }, 'rest-key-1');
    const hookReplay = await post('/public/v1/webhooks', tenant.headers, { url: `${receiver.origin}/at-rest`, events: ['job_listing.updated'] }, 'rest-hook-1');
    // A replay still answers the very same body, secret included.
    expect(keyReplay).toEqual({ ...key, replayed: 'true' });
    expect(hookReplay).toEqual({ ...hook, replayed: 'true' });
    expect((await fetch(`${t.baseUrl}/public/v1/job-listings`, { headers: apiKeyHeaders })).status).toBe(200);

    for (const [kind, value] of Object.entries(secrets)) expect(value, kind).toMatch(/^[\w.~+/=-]{20,}$/);
    const rows = await dumpDatabase(t);
    expect(rows.length).toBeGreaterThan(50);
    const found = Object.entries(secrets).flatMap(([kind, value]) =>
      rows.filter(({ row }) => row.includes(value)).map(({ table }) => `${kind} in ${table}`),
    );
    expect(found).toEqual([]);

    // Every one of them still works after the dump: nothing was lost by not keeping it.
    expect((await fetch(`${t.baseUrl}/settings/api-keys`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${t.baseUrl}/public/v1/job-listings`, { headers: { authorization: `Bearer ${partner.tokens.access_token}` } })).status).toBe(200);
    const partnerRefreshed = await oidc.refreshTokenGrant(partner.config, partner.tokens.refresh_token!);
    expect(partnerRefreshed.access_token).toBeTruthy();
  });
});

describe('Idempotency-Key answers at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('replays an answer an earlier release stored in clear; the encryption-key rotation seals it, and re-seals under a new key', async () => {
    const tenant = await t.tenant();
    const request = {
      method: 'POST' as const,
      url: '/public/v1/webhooks',
      headers: { ...tenant.headers, 'idempotency-key': 'clear-answer-1' },
      payload: { url: `${receiver.origin}/clear-answer`, events: ['job_listing.updated'] },
    };
    const first = await t.app.inject(request);
    expect(first.statusCode).toBe(201);
    const stored = async () =>
      (
        await queryRows<{ body: string }>(
          t.ctx.db,
          sql`SELECT response_body AS body FROM idempotency_keys WHERE company_id = ${tenant.companyId} AND idempotency_key = 'clear-answer-1'`,
        )
      )[0]!.body;
    expect(await stored()).toMatch(new RegExp(`^enc:v1:${t.ctx.secrets.currentKeyId}:`));
    expect(await stored()).not.toContain('whsec_');

    // As a row written before this release: the answer in clear. It still replays, as it was.
    await t.ctx.db.execute(
      sql`UPDATE idempotency_keys SET response_body = ${first.body} WHERE company_id = ${tenant.companyId} AND idempotency_key = 'clear-answer-1'`,
    );
    const replay = await t.app.inject(request);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(first.body);

    const { resealStoredResponses } = await import('../../src/infra/idempotency/repo.ts');
    expect(await resealStoredResponses(t.ctx.db, t.ctx.secrets)).toBe(1);
    expect(await stored()).toMatch(/^enc:v1:/);
    expect(await resealStoredResponses(t.ctx.db, t.ctx.secrets)).toBe(0);
    expect((await t.app.inject(request)).body).toBe(first.body);

    // A rotation of ENCRYPTION_KEY re-seals it under the new key (and back, for the other tests).
    const oldKey = parseEncryptionKey(TEST_ENCRYPTION_KEY);
    const newKey = parseEncryptionKey(generateEncryptionKey());
    const during = createSecretBox(newKey, [oldKey]);
    expect(await resealStoredResponses(t.ctx.db, during)).toBe(1);
    expect((await stored()).split(':')[2]).toBe(during.currentKeyId);
    expect(await resealStoredResponses(t.ctx.db, createSecretBox(oldKey, [newKey]))).toBe(1);
    expect((await t.app.inject(request)).body).toBe(first.body);
  });
});

describe('webhook signing secrets at rest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('stores the secret and the rotated previous secret sealed; deliveries verify with both shown secrets', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(t, tenant, '/sealed');
    expect(sub.secret).toMatch(/^whsec_/);
    const rotated = (
      await t.app.inject({ method: 'POST', url: `/public/v1/webhooks/${sub.id}/rotate-secret`, headers: tenant.headers })
    ).json() as { secret: string };

    const stored = await storedSecrets(t, sub.id);
    expect(stored.secret).toMatch(/^enc:v1:[0-9a-f]{12}:/);
    expect(stored.previous_secret).toMatch(/^enc:v1:[0-9a-f]{12}:/);
    expect(await clearSecretsInDatabase(t)).toBe(0);

    const request = await deliverOne(t, tenant, '/sealed');
    expect(verifies(rotated.secret, request)).toBe(true);
    expect(verifies(sub.secret, request)).toBe(true);
  });

  it('seals secrets stored in clear before encryption existed (what every start does), and they keep signing', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(t, tenant, '/was-clear');
    // As a row written before this release: the clear secret in the column.
    await t.ctx.db.execute(sql`UPDATE webhook_subscriptions SET secret = ${sub.secret} WHERE id = ${sub.id}`);
    expect(await clearSecretsInDatabase(t)).toBe(1);
    // Still usable in between (a worker of the previous release may be running).
    expect(verifies(sub.secret, await deliverOne(t, tenant, '/was-clear'))).toBe(true);

    expect(await resealSigningSecrets(t.ctx, { onlyClear: true })).toBe(1);
    expect(await clearSecretsInDatabase(t)).toBe(0);
    expect(await resealSigningSecrets(t.ctx, { onlyClear: true })).toBe(0);
    expect(verifies(sub.secret, await deliverOne(t, tenant, '/was-clear'))).toBe(true);
  });

  it('rotates ENCRYPTION_KEY: with the old key in ENCRYPTION_KEY_PREVIOUS everything is re-sealed, then the old key can go', async () => {
    const tenant = await t.tenant();
    const sub = await subscribe(t, tenant, '/env-rotation');
    const oldKey = parseEncryptionKey(TEST_ENCRYPTION_KEY);
    const newKey = parseEncryptionKey(generateEncryptionKey());
    // What `encryption-key rotate` does with ENCRYPTION_KEY=new and ENCRYPTION_KEY_PREVIOUS=old.
    const during = createSecretBox(newKey, [oldKey]);
    expect(await resealSigningSecrets({ ...t.ctx, secrets: during })).toBeGreaterThanOrEqual(1);
    const stored = await storedSecrets(t, sub.id);
    expect(stored.secret.split(':')[2]).toBe(during.currentKeyId);
    // The old key alone no longer opens it: the rotation really re-encrypted.
    expect(() => createSecretBox(oldKey).open(stored.secret, 'webhook-signing-secret')).toThrow(/neither ENCRYPTION_KEY/);
    // The new key alone (ENCRYPTION_KEY_PREVIOUS removed) signs.
    expect(verifies(sub.secret, await deliverOne(t, tenant, '/env-rotation', createSecretBox(newKey)))).toBe(true);
    // Back to the test key for the other tests of this file.
    await resealSigningSecrets(t.ctx, { box: createSecretBox(oldKey, [newKey]) });
  });
});

describe('configuration', () => {
  it('requires ENCRYPTION_KEY in production mode and refuses a malformed one', async () => {
    const { loadConfig, ConfigError } = await import('../../src/config.ts');
    expect(() => loadConfig({ MODE: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODE: 'production' })).toThrow(/ENCRYPTION_KEY is required/);
    expect(() => loadConfig({ ENCRYPTION_KEY: 'short' })).toThrow(/ENCRYPTION_KEY must be 32 bytes/);
    expect(() => loadConfig({ ENCRYPTION_KEY_PREVIOUS: generateEncryptionKey() })).toThrow(/ENCRYPTION_KEY is not/);
    expect(loadConfig({ MODE: 'production', ENCRYPTION_KEY: generateEncryptionKey() }).encryptionKey?.current).toHaveLength(32);
  });
});

describe('the key file of a development install, rotated by the CLI', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'recruiting-keys-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [CLI, ...args], { env: childEnv(env) }, (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  it('generates the key in DATA_DIR on first use, and `encryption-key rotate` re-seals under a new one', async () => {
    const usingPostgres = Boolean(process.env.DATABASE_URL);
    // No ENCRYPTION_KEY: the key file in DATA_DIR. Embedded: the app opens that directory itself.
    const env = { ENCRYPTION_KEY: '', DATA_DIR: dataDir };
    let t = await buildTestApp(env, usingPostgres ? {} : { dataDir });
    const first = t;
    const open = () => buildTestApp(env, usingPostgres ? { databaseUrl: first.databaseUrl! } : { dataDir });
    const target = { DATA_DIR: dataDir, DATABASE_URL: t.databaseUrl ?? '' };
    let tenant: Tenant;
    let sub: { id: string; secret: string };
    let oldKeyId: string;
    const keyFile = join(dataDir, 'encryption.key');
    try {
      expect(existsSync(keyFile)).toBe(true);
      tenant = await t.tenant();
      sub = await subscribe(t, tenant, '/file-key');
      oldKeyId = (await storedSecrets(t, sub.id)).secret.split(':')[2]!;
      expect(oldKeyId).toBe(t.ctx.secrets.currentKeyId);
    } finally {
      if (!usingPostgres) await t.close(); // the CLI needs the embedded directory's lock
    }
    const oldKey = readFileSync(keyFile, 'utf8');

    const result = await cli(['encryption-key', 'rotate'], target);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as { keySource: string; keyId: string; resealed: number };
    // The webhook signing secret, and the authorization server's generated signing and cookie keys.
    expect(output).toMatchObject({ keySource: keyFile, resealed: 3 });
    expect(output.keyId).not.toBe(oldKeyId);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(oldKey);
    expect(existsSync(join(dataDir, 'encryption.key.next'))).toBe(false);

    t = await open();
    try {
      expect(t.ctx.secrets.currentKeyId).toBe(output.keyId);
      expect((await storedSecrets(t, sub.id)).secret.split(':')[2]).toBe(output.keyId);
      expect(await clearSecretsInDatabase(t)).toBe(0);
      expect(verifies(sub.secret, await deliverOne(t, tenant, '/file-key'))).toBe(true);
    } finally {
      await t.close();
      if (usingPostgres) await first.close();
    }
  }, 180_000);

  it('`encryption-key generate` prints a usable key without touching anything', async () => {
    const result = await cli(['encryption-key', 'generate'], { MODE: 'production' });
    expect(result.code).toBe(0);
    const { encryptionKey } = JSON.parse(result.stdout) as { encryptionKey: string };
    expect(Buffer.from(encryptionKey, 'base64')).toHaveLength(32);
  });
});
