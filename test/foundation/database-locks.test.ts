// A lock held on what writes need (a row, or a whole table in ACCESS EXCLUSIVE mode) fills the
// write pool with writes waiting for it: they answer 503 with Retry-After, while readiness (a
// connection of its own) and the reads that need no locked table (a pool of their own) go on.
// PostgreSQL only: the embedded database is one connection in the process, which no other session
// can lock, and has no pool to fill (a statement waits only for the one running before it).
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const POOL_WAIT_MS = 1000;
const WRITES = 8;

describe.skipIf(!process.env.DATABASE_URL)('a lock on what writes need (PostgreSQL)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let jobListingId: string;
  let locker: pg.Client;
  beforeAll(async () => {
    t = await buildTestApp({ DB_POOL_SIZE: '2', DB_POOL_TIMEOUT_MS: String(POOL_WAIT_MS), DB_STATEMENT_TIMEOUT_MS: '15000' });
    tenant = await t.tenant();
    jobListingId = await makeListing(t, tenant.companyId);
    locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await t?.close();
  });

  async function timed(url: string) {
    const started = performance.now();
    const res = await t.app.inject({ url, headers: url === '/readyz' ? {} : tenant.headers });
    return { res, ms: performance.now() - started };
  }

  /** A new application (ACTIVE), so that every move below changes its stage and writes. */
  async function newApplication(): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId, candidate: applicant(`lock-${Math.random()}@example.com`) },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id;
  }

  const locks = [
    ['a row lock on the application moved', (id: string) => `select 1 from applications where id = '${id}' for update`],
    ['ACCESS EXCLUSIVE on the outbox table every move writes', () => 'lock table events in access exclusive mode'],
  ] as const;

  it.each(locks)('%s: /readyz and reads answer 200 at once, the writes 503 with Retry-After', async (_name, lock) => {
    const applicationId = await newApplication();
    // The key's last use is written once a minute (a write): put the clock at the start of a
    // minute and use the key now, so no such write falls within the test.
    t.clock.advance(60_000 - (t.clock.now().getTime() % 60_000) + 100);
    for (const url of ['/readyz', '/public/v1/enums', '/public/v1/sectors']) expect((await timed(url)).res.statusCode, url).toBe(200);

    await locker.query('BEGIN');
    await locker.query(lock(applicationId));
    // (.then starts the injected request.)
    const writes = Array.from({ length: WRITES }, (_, i) =>
      t.app
        .inject({
          method: 'PATCH',
          url: `/public/v1/applications/${applicationId}/status`,
          headers: tenant.headers,
          payload: { status: i % 2 === 0 ? 'IN_REVIEW' : 'INTERVIEW' },
        })
        .then((res) => res),
    );
    try {
      // Both write connections wait for the lock; the other writes queue for one.
      const deadline = Date.now() + 20_000;
      while (t.database.poolStats!().waiting === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(t.database.poolStats!().waiting).toBeGreaterThan(0);

      const ready = await timed('/readyz');
      expect(ready.res.statusCode).toBe(200);
      expect(ready.res.json()).toEqual({ status: 'ready' });
      // Well under the pool wait a request queued behind the writes would spend.
      expect(ready.ms).toBeLessThan(POOL_WAIT_MS);
      for (const url of ['/public/v1/enums', '/public/v1/sectors', `/public/v1/applications/${applicationId}`]) {
        const read = await timed(url);
        expect(read.res.statusCode, `${url} ${read.res.body}`).toBe(200);
        expect(read.ms, url).toBeLessThan(POOL_WAIT_MS);
      }
      // The writes that got no connection give up after the pool wait, still under the lock.
      await new Promise((resolve) => setTimeout(resolve, POOL_WAIT_MS + 500));
    } finally {
      await locker.query('COMMIT');
    }
    const answers = await Promise.all(writes);
    const statuses = answers.map((res) => res.statusCode);
    // The two that held a connection went through once the lock was gone; every other was refused.
    expect(statuses.filter((status) => status === 200)).toHaveLength(2);
    expect(statuses.filter((status) => status === 503)).toHaveLength(WRITES - 2);
    for (const res of answers.filter((answer) => answer.statusCode === 503)) {
      expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', `/public/v1/applications/${applicationId}/status`);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
});
