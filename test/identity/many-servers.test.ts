// Two server processes on one PostgreSQL database accept each other's tokens: keys, sessions and
// tokens live in the database, and every request reads them there (so a revocation on one server
// holds at once on the other). The embedded database belongs to one process, so this needs
// DATABASE_URL: skipped on PGlite.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/child-env.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-app.ts';
import { signInAndGetTokens } from './oauth-client.ts';
import { freePort } from '../helpers/free-port.ts';

const SERVER = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
const usingPostgres = Boolean(process.env.DATABASE_URL);

interface Server {
  child: ChildProcess;
  url: string;
  stderr: string;
}

async function startServer(databaseUrl: string, port: number, baseUrl: string): Promise<Server> {
  const child = spawn(process.execPath, [SERVER], {
    env: childEnv({
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      BASE_URL: baseUrl,
      DEV_SIGN_IN: 'true',
      SEED_DEMO: 'false',
      WEBHOOK_WORKER_IN_SERVER: 'false',
      LOG_LEVEL: 'warn',
    }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const server = { child, url: `http://127.0.0.1:${port}`, stderr: '' };
  child.stderr!.on('data', (chunk: Buffer) => (server.stderr += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${server.stderr}`);
    const status = await fetch(`${server.url}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`server not ready: ${server.stderr}`);
}

describe.skipIf(!usingPostgres)('two servers on one PostgreSQL (skipped on PGlite: one process per embedded database)', () => {
  let testDb: TestDatabase;
  const servers: Server[] = [];

  beforeAll(async () => {
    testDb = await openTestDatabase();
    const [port1, port2] = [await freePort(), await freePort()];
    // Both behind one public address, as behind a load balancer.
    const baseUrl = `http://127.0.0.1:${port1}`;
    // One after the other: the second finds the keys the first generated.
    servers.push(await startServer(testDb.url!, port1, baseUrl));
    servers.push(await startServer(testDb.url!, port2, baseUrl));
  }, 150_000);

  afterAll(async () => {
    for (const server of servers) server.child.kill('SIGTERM');
    await Promise.all(servers.map((s) => new Promise((resolve) => (s.child.exitCode !== null ? resolve(null) : s.child.once('exit', resolve)))));
    await testDb?.drop();
  });

  it("accepts each other's tokens, refreshes across servers, and a revocation on one holds at once on the other", async () => {
    const [one, two] = servers;
    expect(await (await fetch(`${one.url}/oauth2/jwks`)).json()).toEqual(await (await fetch(`${two.url}/oauth2/jwks`)).json());

    const { tokens } = await signInAndGetTokens({
      issuer: `${one.url}/oauth2`,
      clientId: 'dashboard',
      redirectUri: `${one.url}/dashboard/callback`,
      scope: 'openid email',
      email: `many-${randomUUID().slice(0, 6)}@example.com`,
    });
    const auth = { authorization: `Bearer ${tokens.access_token}` };
    const created = await fetch(`${two.url}/settings/api-keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'made on two', scopes: ['jobs:read'] }),
    });
    expect(created.status).toBe(201);
    const key = (await created.json()) as { id: string; rawKey: string };
    expect((await fetch(`${one.url}/settings/api-keys`, { headers: auth })).status).toBe(200);

    // The refresh token issued by one is exchanged at two.
    const refreshed = await fetch(`${two.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: 'dashboard' }),
    });
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect((await fetch(`${one.url}/settings/api-keys`, { headers: { authorization: `Bearer ${next.access_token}` } })).status).toBe(200);

    // The key revoked through one fails at once on two.
    expect((await fetch(`${one.url}/settings/api-keys/${key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${next.access_token}` } })).status).toBe(204);
    expect((await fetch(`${two.url}/public/v1/enums`, { headers: { 'x-api-key': key.rawKey } })).status).toBe(401);

    // The grant revoked at two (through its refresh token) ends the access token at one at once.
    const revoked = await fetch(`${two.url}/oauth2/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: next.refresh_token, client_id: 'dashboard' }),
    });
    expect(revoked.status).toBe(200);
    expect((await fetch(`${one.url}/settings/api-keys`, { headers: { authorization: `Bearer ${next.access_token}` } })).status).toBe(401);
  }, 120_000);
});
