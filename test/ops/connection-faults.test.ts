// The fault drill: two API servers and two workers (`node src/server.ts`, `node src/worker.ts`) on
// one PostgreSQL database, under a steady load of application status moves that a webhook receiver
// subscribes to, and every session of that database terminated three times (as a failover, a
// pooler restart or an operator's pg_terminate_backend would). Every process is still running
// afterwards, no request was answered 500 (a move that lost its connection answers 503 with
// Retry-After), and every acknowledged move reaches the receiver. PostgreSQL only: PGlite is one
// process with no connection to lose. Only this file's own database's sessions are terminated.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { createApiKey } from '../../src/modules/api-keys/service.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { createCompany } from '../../src/modules/companies/service.ts';
import { createJobListing, publishJobListing } from '../../src/modules/job-listings/service.ts';
import { createSubscription } from '../../src/modules/webhooks/service.ts';
import { createWebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { createSecretBox, parseEncryptionKey } from '../../src/shared/secret-box.ts';
import { childEnv } from '../helpers/child-env.ts';
import { appendChildLogLines } from '../helpers/suite-log.ts';
import { openTestDatabase, TEST_ENCRYPTION_KEY, type TestDatabase } from '../helpers/test-app.ts';
import { eventually, startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { freePort } from '../helpers/free-port.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Applications moved at once, each by its own loop. */
const MOVERS = 8;
const LOAD_MS = 12_000;
/** When the sessions are terminated, from the start of the load. */
const TERMINATIONS_AT_MS = [2_500, 5_500, 8_500];
const STAGES = ['IN_REVIEW', 'INTERVIEW', 'OFFER'] as const;

interface Proc {
  name: string;
  child: ChildProcess;
  output: string[];
  port: number;
}

describe.skipIf(!process.env.DATABASE_URL)('fault drill: sessions terminated under load (PostgreSQL only: PGlite is one process with no connection to lose)', () => {
  let testDb: TestDatabase;
  let receiver: Receiver;
  let apiKey: string;
  let applicationIds: string[];
  const procs: Proc[] = [];

  function start(name: string, entry: 'server' | 'worker', port: number): Proc {
    // A worker says at info that it started; the rest is quiet unless something goes wrong.
    const child = spawn(process.execPath, [`src/${entry}.ts`], {
      cwd: ROOT,
      env: childEnv({
        DATABASE_URL: testDb.url!,
        ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
        WEBHOOK_ALLOW_LOCAL: 'true',
        PORT: String(port),
        SEED_DEMO: 'false',
        LOG_LEVEL: entry === 'worker' ? 'info' : 'warn',
        RATE_LIMIT_PER_MINUTE: '100000',
        DB_POOL_SIZE: '4',
        // The poll stays the safety net; deliveries are woken by NOTIFY, which must come back.
        WEBHOOK_POLL_MS: '1000',
        // A worker that lost its connection before recording a send: the send is retried soon.
        WEBHOOK_LEASE_SECONDS: '3',
        DATA_DIR: '',
        MODE: 'development',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.on('exit', () => appendChildLogLines(output.join('')));
    const proc = { name, child, output, port };
    procs.push(proc);
    return proc;
  }

  const url = (server: Proc, path: string) => `http://127.0.0.1:${server.port}${path}`;
  const running = (proc: Proc) => proc.child.exitCode === null && proc.child.signalCode === null;

  beforeAll(async () => {
    testDb = await openTestDatabase();
    const ctx = { db: testDb.database.db, clock: systemClock, secrets: createSecretBox(parseEncryptionKey(TEST_ENCRYPTION_KEY)) };
    receiver = await startReceiver();
    const company = await createCompany(ctx, { name: 'Fault drill' });
    apiKey = (await createApiKey(ctx, { companyId: company.id, label: 'drill', scopes: ALL_SCOPES })).rawKey;
    const transport = createWebhookTransport({ allowLocal: true });
    try {
      await createSubscription(ctx, transport, { companyId: company.id, scopes: ALL_SCOPES }, { url: `${receiver.origin}/moves`, events: ['application.status_changed'] });
    } finally {
      await transport.close();
    }
    const { listing } = await createJobListing(ctx, company.id, { position: 'Drill', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
    await publishJobListing(ctx, company.id, listing.id);

    for (const [name, entry] of [['server A', 'server'], ['server B', 'server'], ['worker A', 'worker'], ['worker B', 'worker']] as const) {
      start(name, entry, await freePort());
    }
    const [serverA] = procs as [Proc];
    await eventually(
      async () => (await Promise.all(procs.slice(0, 2).map((server) => fetch(url(server, '/readyz')).then((res) => res.status, () => 0)))).every((status) => status === 200),
      200_000,
      'both servers to be ready',
    );
    await eventually(() => procs.slice(2).every((worker) => worker.output.join('').includes('webhook delivery worker started') || !running(worker)), 200_000, 'both workers to start');
    const candidates = Array.from({ length: MOVERS }, (_, i) => ({ firstName: 'Drill', lastName: `${i}`, email: `drill${i}@example.com` }));
    const imported = await fetch(url(serverA, '/public/v1/candidates/import'), {
      method: 'POST',
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ jobListingId: listing.id, candidates }),
    });
    expect(imported.status).toBe(200);
    const rows = await queryRows<{ id: string }>(testDb.database.db, sql`select id from applications where job_listing_id = ${listing.id}`);
    applicationIds = rows.map((row) => row.id);
    expect(applicationIds).toHaveLength(MOVERS);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(
      procs.map(async (proc) => {
        if (!running(proc)) return;
        const exited = once(proc.child, 'exit');
        proc.child.kill('SIGTERM');
        const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    await receiver?.close();
    await testDb?.drop();
  });

  it('survives three rounds of terminated sessions: every process running, no 500, every acknowledged move delivered', async () => {
    const servers = procs.slice(0, 2);
    const statuses = new Map<string, number>();
    const count = (status: string) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    /** The reason of every move answered 200: each names one move, and reaches the receiver in its event. */
    const acknowledged: string[] = [];
    /** When the last move was answered 200 (ms from the start of the load). */
    let lastAcknowledgedAt = 0;
    let stopping = false;
    let started = 0;

    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    async function statusOf(id: string, server: Proc): Promise<string> {
      for (;;) {
        const res = await fetch(url(server, `/public/v1/applications/${id}`), { headers }).catch(() => undefined);
        count(`GET ${res?.status ?? 'network error'}`);
        if (res?.status === 200) return ((await res.json()) as { status: string }).status;
        await res?.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    async function mover(id: string, index: number): Promise<void> {
      let current = 'ACTIVE';
      for (let n = 0; !stopping; n++) {
        const server = servers[(index + n) % 2]!;
        // Always another stage than the current one: a move to the same stage makes no event.
        const status = STAGES[(STAGES.indexOf(current as (typeof STAGES)[number]) + 1) % STAGES.length]!;
        const reason = `move ${index}-${n}`;
        const res = await fetch(url(server, `/public/v1/applications/${id}/status`), { method: 'PATCH', headers, body: JSON.stringify({ status, reason }) }).catch(() => undefined);
        count(`PATCH ${res?.status ?? 'network error'}`);
        if (res?.status === 200) {
          acknowledged.push(reason);
          lastAcknowledgedAt = performance.now() - started;
          current = status;
          await res.body?.cancel();
        } else {
          await res?.body?.cancel();
          // The move may or may not have been made: read where the application is before the next.
          current = await statusOf(id, server);
        }
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
    }

    const admin = new pg.Client({ connectionString: testDb.url });
    admin.on('error', () => {});
    await admin.connect();
    const terminated: number[] = [];
    started = performance.now();
    const load = Promise.all(applicationIds.map(mover));
    try {
      for (const at of TERMINATIONS_AT_MS) {
        await new Promise((resolve) => setTimeout(resolve, at - (performance.now() - started)));
        const { rowCount } = await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
        );
        terminated.push(rowCount ?? 0);
      }
      await new Promise((resolve) => setTimeout(resolve, LOAD_MS - (performance.now() - started)));
    } finally {
      stopping = true;
      await load;
      await admin.end();
    }

    const moves = () => receiver.requests.filter((request) => request.path === '/moves');
    const deliveredReasons = () => new Set(moves().map((request) => (JSON.parse(request.body) as { data: { reason: string } }).data.reason));
    const undelivered = () => {
      const delivered = deliveredReasons();
      return acknowledged.filter((reason) => !delivered.has(reason));
    };
    await eventually(() => undelivered().length === 0, 30_000, 'every acknowledged move to be delivered').catch(() => {});
    const ids = moves().map((request) => request.headers['webhook-id'] as string);
    const counts = {
      sessionsTerminated: terminated,
      movesAcknowledged: acknowledged.length,
      delivered: new Set(ids).size,
      acknowledgedNotDelivered: undelivered().length,
      duplicates: ids.length - new Set(ids).size,
      answered503: [...statuses].filter(([status]) => status.endsWith(' 503')).reduce((sum, [, n]) => sum + n, 0),
      answers: Object.fromEntries([...statuses].sort()),
    };
    console.log(`fault drill: ${JSON.stringify(counts)}`);

    for (const proc of procs) expect(running(proc), `${proc.name} exited:\n${proc.output.join('').slice(-3000)}`).toBe(true);
    expect(terminated.every((n) => n > 0)).toBe(true);
    expect([...statuses.keys()].filter((status) => !/ (200|503)$/.test(status))).toEqual([]);
    // The load went on through the drill: moves were made after the last termination too.
    expect(lastAcknowledgedAt).toBeGreaterThan(TERMINATIONS_AT_MS.at(-1)!);
    expect(undelivered()).toEqual([]);
  }, 90_000);
});
