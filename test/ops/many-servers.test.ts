// Many servers: two API server processes and two worker processes (`node src/server.ts`,
// `node src/worker.ts`) on one PostgreSQL and one Redis, as a deployment runs them. A revoked key is
// refused by every server at once, the rate limit is one count across servers, 1,000 status changes
// made through both servers all reach the receiver (duplicates only after a worker is killed), and
// SIGTERM lets a worker finish the sends it has in flight. PGlite is single-process: PostgreSQL only.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createApiKey, createApiKeyCache, revokeApiKey } from '../../src/modules/api-keys/service.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { createCompany } from '../../src/modules/companies/service.ts';
import { createJobListing, publishJobListing } from '../../src/modules/job-listings/service.ts';
import { createSubscription } from '../../src/modules/webhooks/service.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { systemClock } from '../../src/shared/clock.ts';
import type { ServiceContext } from '../../src/shared/context.ts';
import { createSecretBox, parseEncryptionKey } from '../../src/shared/secret-box.ts';
import { childEnv } from '../helpers/child-env.ts';
import { openTestDatabase, TEST_ENCRYPTION_KEY, type TestDatabase } from '../helpers/test-app.ts';
import { eventually, startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { freePort } from '../helpers/free-port.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RATE_LIMIT = 40;
const KEYS = 30; // 1,000 changes spread so that no key reaches the limit
const APPLICATIONS = 250;
const STAGES = ['IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED'] as const; // 250 x 4 = 1,000 changes

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  port: number;
}

describe.skipIf(!process.env.DATABASE_URL)('two servers and two workers on one PostgreSQL and one Redis (PostgreSQL only: PGlite is single-process)', () => {
  let testDb: TestDatabase;
  let ctx: ServiceContext;
  let transport: WebhookTransport;
  let receiver: Receiver;
  const procs: Proc[] = [];
  let servers: Proc[];
  let workers: Proc[];
  let companyId: string;
  let keys: string[];

  async function start(name: string, entry: 'server' | 'worker', extra: Record<string, string> = {}): Promise<Proc> {
    const port = await freePort();
    const child = spawn(process.execPath, [`src/${entry}.ts`], {
      cwd: ROOT,
      env: childEnv({
        DATABASE_URL: testDb.url!,
        REDIS_URL,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        WEBHOOK_ALLOW_LOCAL: 'true',
        PORT: String(port),
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_LEASE_SECONDS: '3',
        WEBHOOK_CONCURRENCY: '8',
        DATA_DIR: '',
        MODE: 'development',
        ...extra,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const proc = { name, child, output, port };
    procs.push(proc);
    return proc;
  }

  const url = (server: Proc, path: string) => `http://127.0.0.1:${server.port}${path}`;

  async function ready(server: Proc): Promise<void> {
    await eventually(
      async () => (await fetch(url(server, '/readyz')).then((res) => res.status, () => 0)) === 200,
      90_000,
      `${server.name} to be ready`,
    );
  }

  async function workerStarted(worker: Proc): Promise<void> {
    await eventually(() => worker.output.join('').includes('webhook delivery worker started'), 90_000, `${worker.name} to start`);
  }

  const enums = (server: Proc, key: string) => fetch(url(server, '/public/v1/enums'), { headers: { 'x-api-key': key } }).then((res) => res.status);

  beforeAll(async () => {
    testDb = await openTestDatabase();
    // With the API-key cache, as every process has (src/deps.ts): a revocation answers only once the
    // change's notification came back, so the servers have it too.
    ctx = {
      db: testDb.database.db,
      clock: systemClock,
      secrets: createSecretBox(parseEncryptionKey(TEST_ENCRYPTION_KEY)),
      notifications: testDb.database,
      apiKeyCache: createApiKeyCache(testDb.database),
    };
    transport = createWebhookTransport({ allowLocal: true });
    receiver = await startReceiver();
    const company = await createCompany(ctx, { name: 'Many servers' });
    companyId = company.id;
    keys = [];
    for (let i = 0; i < KEYS; i++) keys.push((await createApiKey(ctx, { companyId, label: `k${i}`, scopes: ALL_SCOPES })).rawKey);
    await createSubscription(ctx, transport, { companyId, scopes: ALL_SCOPES }, { url: `${receiver.origin}/changes`, events: ['application.status_changed'] });

    servers = [await start('server A', 'server'), await start('server B', 'server')];
    // Workers log successes at debug: the test counts them.
    workers = [await start('worker A', 'worker', { LOG_LEVEL: 'debug' }), await start('worker B', 'worker', { LOG_LEVEL: 'debug' })];
    await Promise.all([...servers.map(ready), ...workers.map(workerStarted)]);
  }, 240_000);

  afterAll(async () => {
    for (const proc of procs) if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
    await transport?.close();
    await receiver?.close();
    await testDb?.drop();
  });

  it('says at start that deliveries need `npm run worker` when the server runs none', () => {
    expect(servers[0]!.output.join('')).toContain('run `npm run worker`');
  });

  it('refuses a key revoked through one server on the next request to the other', async () => {
    const [a, b] = servers as [Proc, Proc];
    const { rawKey, id } = await createApiKey(ctx, { companyId, label: 'to revoke', scopes: ALL_SCOPES });
    expect([await enums(a, rawKey), await enums(b, rawKey)]).toEqual([200, 200]);
    // As `npm run cli -- api-key revoke` does, on the shared database while both servers run.
    await revokeApiKey(ctx, undefined, id);
    expect([await enums(b, rawKey), await enums(a, rawKey)]).toEqual([401, 401]);
  });

  it('counts the rate limit once across both servers', async () => {
    const [a, b] = servers as [Proc, Proc];
    const { rawKey } = await createApiKey(ctx, { companyId, label: 'limited', scopes: ALL_SCOPES });
    // The limit is per one-minute window: start early in one, so the count is not reset midway.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 200));
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 6; i++) statuses.push(await enums(i % 2 === 0 ? a : b, rawKey));
    expect(statuses.filter((status) => status === 200)).toHaveLength(RATE_LIMIT);
    expect(statuses.slice(RATE_LIMIT)).toEqual(Array(6).fill(429));
  });

  it('delivers 1,000 status changes made through both servers: none lost, none twice, then with a worker killed mid-burst none lost', async () => {
    const [a, b] = servers as [Proc, Proc];
    const { listing } = await createJobListing(ctx, companyId, { position: 'Burst', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
    await publishJobListing(ctx, companyId, listing.id);
    const candidates = Array.from({ length: APPLICATIONS }, (_, i) => ({ firstName: 'C', lastName: `${i}`, email: `c${i}@example.com` }));
    const imported = await fetch(url(a, '/public/v1/candidates/import'), {
      method: 'POST',
      headers: { 'x-api-key': keys[0]!, 'content-type': 'application/json' },
      body: JSON.stringify({ jobListingId: listing.id, candidates }),
    });
    expect(imported.status).toBe(200);
    const applications = await queryRows<{ id: string }>(ctx.db, sql`SELECT id FROM applications WHERE job_listing_id = ${listing.id}`);
    expect(applications).toHaveLength(APPLICATIONS);

    let request = 0;
    const move = async (applicationId: string, status: string) => {
      const n = request++;
      const res = await fetch(url(n % 2 === 0 ? a : b, `/public/v1/applications/${applicationId}/status`), {
        method: 'PATCH',
        headers: { 'x-api-key': keys[n % KEYS]!, 'content-type': 'application/json' },
        body: JSON.stringify({ status }),
      });
      expect(res.status, await res.text()).toBe(200);
    };
    const changesOf = () => receiver.requests.filter((r) => r.path === '/changes').map((r) => r.headers['webhook-id'] as string);
    const runStage = async (status: string) => {
      // Ten at a time, alternating servers and keys.
      for (let i = 0; i < applications.length; i += 10) {
        await Promise.all(applications.slice(i, i + 10).map((application) => move(application.id, status)));
      }
    };

    // First half (500 changes) with both workers running throughout: each delivered exactly once.
    await runStage(STAGES[0]);
    await runStage(STAGES[1]);
    await eventually(() => new Set(changesOf()).size === 500, 120_000, '500 deliveries');
    expect(changesOf()).toHaveLength(500);
    const deliveredBy = (worker: Proc) => worker.output.join('').split('\n').filter((line) => line.includes('"webhook delivered"')).length;
    expect(deliveredBy(workers[0]!)).toBeGreaterThan(0);
    expect(deliveredBy(workers[1]!)).toBeGreaterThan(0);

    // Second half: worker A is killed (SIGKILL) while it sends; its leases run out and worker B takes over.
    receiver.handler = () => ({ status: 200, body: 'ok', delayMs: 20 });
    const moves = Promise.all([runStage(STAGES[2]).then(() => runStage(STAGES[3]))]);
    await eventually(() => changesOf().length >= 600, 120_000, 'the second half to be under way');
    workers[0]!.child.kill('SIGKILL');
    await moves;
    const [events] = await queryRows<{ ids: string[] }>(
      ctx.db,
      sql`SELECT array_agg(id::text) AS ids FROM events WHERE company_id = ${companyId} AND type = 'application.status_changed'`,
    );
    expect(events!.ids).toHaveLength(1000);
    await eventually(() => new Set(changesOf()).size === 1000, 120_000, 'all 1,000 deliveries');
    expect(new Set(changesOf())).toEqual(new Set(events!.ids));
    // The killed worker's sends that reached the receiver but were never recorded are sent again
    // by the other worker once their leases run out: in the end every delivery is recorded.
    const pending = async () =>
      (
        await queryRows<{ n: number }>(
          ctx.db,
          sql`SELECT count(*)::int AS n FROM webhook_deliveries WHERE company_id = ${companyId} AND status <> 'DELIVERED'`,
        )
      )[0]!.n;
    await eventually(async () => (await pending()) === 0, 120_000, 'every delivery recorded as delivered');
    // Duplicates only from the killed worker's sends in flight (at most its concurrency).
    expect(changesOf().length - 1000).toBeLessThanOrEqual(8);
    receiver.handler = () => ({ status: 200, body: 'ok' });
  }, 420_000);

  it('SIGTERM: a worker finishes and records the sends it has in flight before it exits', async () => {
    const worker = workers[1]!;
    expect(worker.child.exitCode).toBeNull();
    const before = receiver.requests.length;
    // Slow answers: the sends are still in flight when the signal comes.
    receiver.handler = () => ({ status: 200, body: 'ok', delayMs: 1500 });
    const [application] = await queryRows<{ id: string }>(ctx.db, sql`SELECT id FROM applications WHERE company_id = ${companyId} LIMIT 1`);
    const res = await fetch(url(servers[0]!, `/public/v1/applications/${application!.id}/status`), {
      method: 'PATCH',
      headers: { 'x-api-key': keys[1]!, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'REJECTED', reason: 'sigterm test' }),
    });
    expect(res.status).toBe(200);
    await eventually(() => receiver.requests.length > before, 30_000, 'the send to start');
    const exited = once(worker.child, 'exit');
    worker.child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
    const [row] = await queryRows<{ pending: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS pending FROM webhook_deliveries WHERE company_id = ${companyId} AND status <> 'DELIVERED'`,
    );
    expect(row!.pending).toBe(0);
    receiver.handler = () => ({ status: 200, body: 'ok' });
  }, 120_000);
});
