// A lost database connection (a terminated session, a refused or reset connection) fails only the
// requests that were using it, with 503 and Retry-After, never 500: the process goes on, its pool
// drops the broken connections and opens new ones, and LISTEN comes back. PostgreSQL only: the
// embedded database has no connection to lose. Sessions are terminated only in this file's own
// database; "refused" and "reset" are a TCP proxy of this file's own between the app and PostgreSQL.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import type { AppInstance } from '../../src/http/app-instance.ts';
import { principalOf } from '../../src/http/auth.ts';
import { createJobListing } from '../../src/modules/job-listings/service.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { startTcpProxy, targetOf, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { buildTestApp, openTestDatabase, type Tenant, type TestApp, type TestDatabase } from '../helpers/test-app.ts';
import { eventually } from '../webhooks/receiver.ts';

/** Transactions of the test routes held open between two statements until the test lets them go. */
const held: Array<{ pid: number; go: () => void }> = [];

function testRoutes(app: AppInstance) {
  // A transaction that reads, waits (as any transaction does between its statements, only longer)
  // and reads again.
  app.get('/public/v1/test-held-transaction', { config: { auth: { scope: 'jobs:read' } } }, async () => {
    return app.ctx.db.transaction(async (tx) => {
      const [{ pid }] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      await new Promise<void>((go) => held.push({ pid, go }));
      const [row] = await queryRows<{ n: number }>(tx, sql`select count(*)::int as n from job_listings`);
      return { n: row!.n };
    });
  });
  // A create held after its Idempotency-Key was claimed, until the test lets it go.
  app.post(
    '/public/v1/test-held-create',
    { config: { auth: { scope: 'jobs:write' } }, schema: { body: Type.Object({ position: Type.String() }) } },
    async (request, reply) => {
      await new Promise<void>((go) => held.push({ pid: 0, go }));
      const created = await createJobListing(app.ctx, principalOf(request).companyId, {
        position: (request.body as { position: string }).position,
        positionType: 'FULL_TIME',
        workPlaceType: 'REMOTE',
      });
      return reply.status(201).send({ id: created.listing.id });
    },
  );
}

async function heldTransaction(): Promise<{ pid: number; go: () => void }> {
  await eventually(() => held.length > 0, 10_000, 'the test route to hold its transaction');
  return held.shift()!;
}

describe.skipIf(!process.env.DATABASE_URL)('a lost database connection (PostgreSQL only: the embedded database has no connection to lose)', () => {
  let owner: TestDatabase;
  let proxy: TcpProxy;
  let t: TestApp;
  let tenant: Tenant;
  /** A session of the test's own, straight to PostgreSQL (not through the proxy). */
  let admin: pg.Client;

  beforeAll(async () => {
    owner = await openTestDatabase();
    proxy = await startTcpProxy(targetOf(owner.url!));
    // Two connections, and a short wait for one: a connection the pool never got back shows as 503s.
    t = await buildTestApp({ DB_POOL_SIZE: '2', DB_POOL_TIMEOUT_MS: '2000' }, { databaseUrl: proxy.urlFor(owner.url!), configure: testRoutes });
    tenant = await t.tenant();
    admin = new pg.Client({ connectionString: owner.url });
    await admin.connect();
  });
  afterAll(async () => {
    for (const transaction of held.splice(0)) transaction.go();
    await admin?.end();
    await t?.close();
    await proxy?.close();
    await owner?.drop();
  });

  /** Ends every session of this file's database but the admin's own; answers how many. */
  async function terminateSessions(): Promise<number> {
    const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    return rowCount ?? 0;
  }

  const listings = () => t.app.inject({ url: '/public/v1/job-listings', headers: tenant.headers });

  it('a transaction whose session is terminated between two statements: that request answers 503 with Retry-After, the next is served', async () => {
    const request = t.app.inject({ url: '/public/v1/test-held-transaction', headers: tenant.headers }).then((res) => res);
    const transaction = await heldTransaction();
    await admin.query('select pg_terminate_backend($1)', [transaction.pid]);
    // The connection, checked out and idle inside its transaction, hears that its session ended.
    await eventually(async () => (await admin.query('select 1 from pg_stat_activity where pid = $1', [transaction.pid])).rowCount === 0, 5_000, 'the session to end');
    await new Promise((resolve) => setTimeout(resolve, 100));
    transaction.go();
    const res = await request;
    expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', '/public/v1/test-held-transaction');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect((await listings()).statusCode).toBe(200);
  });

  it('a statement whose session is terminated while it waits for a lock answers 503 with Retry-After (57P01)', async () => {
    const listingId = await makeListing(t, tenant.companyId);
    const applied = await t.app.inject({ method: 'POST', url: '/public/v1/applications', headers: tenant.headers, payload: { jobListingId: listingId, candidate: applicant('lock@example.com') } });
    expect(applied.statusCode).toBe(201);
    const id = applied.json<{ id: string }>().id;
    await admin.query('begin');
    await admin.query('lock table applications in access exclusive mode');
    let waiting: number | undefined;
    try {
      const request = t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${id}/status`, headers: tenant.headers, payload: { status: 'IN_REVIEW' } }).then((res) => res);
      await eventually(async () => {
        const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        waiting = rows[0]?.pid;
        return waiting !== undefined;
      }, 10_000, 'the move to wait for the lock');
      await admin.query('select pg_terminate_backend($1)', [waiting]);
      const res = await request;
      expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', `/public/v1/applications/${id}/status`);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await admin.query('commit');
    }
    const moved = await t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${id}/status`, headers: tenant.headers, payload: { status: 'IN_REVIEW' } });
    expect(moved.statusCode).toBe(200);
  });

  it('the database refusing connections answers 503 with Retry-After; once it is back, 200 again', async () => {
    expect((await listings()).statusCode).toBe(200);
    await proxy.down();
    try {
      const res = await listings();
      expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', '/public/v1/job-listings');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await proxy.up();
    }
    expect((await listings()).statusCode).toBe(200);
  });

  it('a POST holding an Idempotency-Key whose database goes away answers 503 in the envelope', async () => {
    const headers = { ...tenant.headers, 'idempotency-key': 'lost-connection-1' };
    const request = t.app.inject({ method: 'POST', url: '/public/v1/test-held-create', headers, payload: { position: 'Welder' } }).then((res) => res);
    const create = await heldTransaction(); // the key is claimed by now
    await proxy.down();
    create.go();
    const res = await request.finally(() => proxy.up());
    // The claim cannot be given back while the database is away: it stays a lease, which a retry
    // takes over once it has run out.
    expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', '/public/v1/test-held-create');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('a transaction meeting a reset connection at its BEGIN gives the connection back: the pool is not used up', async () => {
    // Both pooled connections open and idle, then the network resets them; the transactions start
    // before the pool has heard of it.
    for (let round = 0; round < 2; round++) {
      // In transactions: they run on the write pool (a plain read would take the read pool's).
      await Promise.all([1, 2].map(() => t.ctx.db.transaction(async (tx) => queryRows(tx, sql`select pg_sleep(0.05)`))));
      proxy.cut();
      const failed = await Promise.allSettled([1, 2].map(() => t.ctx.db.transaction(async (tx) => queryRows(tx, sql`select 1`))));
      expect(failed.map((result) => result.status)).toContain('rejected');
    }
    const started = performance.now();
    const statuses = await Promise.all([1, 2, 3].map(async () => (await listings()).statusCode));
    expect(statuses).toEqual([200, 200, 200]);
    await Promise.all([1, 2, 3].map(() => t.ctx.db.transaction(async (tx) => queryRows(tx, sql`select 1`))));
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('LISTEN comes back after its session is terminated, and notifications flow again', async () => {
    const states: boolean[] = [];
    const messages: string[] = [];
    const unlisten = await t.database.listen('connection_loss_test', { onMessage: (payload) => messages.push(payload), onState: (listening) => states.push(listening) });
    try {
      expect(states.at(-1)).toBe(true);
      states.length = 0;
      expect(await terminateSessions()).toBeGreaterThan(0);
      await eventually(() => states[0] === false && states.at(-1) === true, 10_000, 'LISTEN to be back');
      await admin.query("select pg_notify('connection_loss_test', 'after')");
      await eventually(() => messages.includes('after'), 5_000, 'the notification');
    } finally {
      await unlisten();
    }
    expect((await listings()).statusCode).toBe(200);
  });
});
