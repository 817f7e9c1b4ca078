// Issue 9 item 10 (PostgreSQL only: the embedded database has one connection and no other
// sessions to wait for). A locked table once held every pooled connection and made every request
// wait: statements now time out, a request that gets no connection in time is a 503 with
// Retry-After, and the sessions carry idle_in_transaction_session_timeout.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { queryRows } from '../../src/db/client.ts';
import { sql } from 'drizzle-orm';

describe.skipIf(!process.env.DATABASE_URL)('database timeouts (PostgreSQL)', () => {
  let t: TestApp;
  let tenant: Tenant;
  let locker: pg.Client;
  beforeAll(async () => {
    t = await buildTestApp({
      DB_POOL_SIZE: '2',
      DB_POOL_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '4000',
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: '7000',
    });
    tenant = await t.tenant();
    locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await t.close();
  });

  /** Waits until `count` sessions of the app wait for a lock. */
  async function waitForLockWaiters(count: number): Promise<void> {
    for (;;) {
      const { rows } = await locker.query(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (rows[0].n >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('sets the session timeouts', async () => {
    const rows = await queryRows<{ s: string; i: string }>(
      t.ctx.db,
      sql`select current_setting('statement_timeout') as s, current_setting('idle_in_transaction_session_timeout') as i`,
    );
    expect(rows[0]).toEqual({ s: '4s', i: '7s' });
  });

  it('answers 503 with Retry-After when no connection is free in time, and recovers', async () => {
    // Both pooled connections open first (opening one is slow on a busy machine).
    await Promise.all([1, 2].map(() => t.ctx.db.execute(sql`select pg_sleep(0.3)`)));
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE sectors IN ACCESS EXCLUSIVE MODE');
    // Two requests wait on the lock, holding both pooled connections.
    // (.then starts the injected request; light-my-request waits for it.)
    const blocked = [1, 2].map(() => t.app.inject({ url: '/public/v1/sectors', headers: tenant.headers }).then((r) => r));
    await waitForLockWaiters(2);
    // A request that needs the database (not the locked table): the API key itself is cached, so
    // it must be one that reads rows.
    const res = await t.app.inject({ url: '/public/v1/job-listings', headers: tenant.headers });
    expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', '/public/v1/job-listings');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await locker.query('COMMIT');
    expect((await Promise.all(blocked)).map((r) => r.statusCode)).toEqual([200, 200]);
    expect((await t.app.inject({ url: '/public/v1/job-listings', headers: tenant.headers })).statusCode).toBe(200);
  });

  it('answers 503 when a statement waits past statement_timeout', async () => {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE sectors IN ACCESS EXCLUSIVE MODE');
    try {
      const res = await t.app.inject({ url: '/public/v1/sectors', headers: tenant.headers });
      expectErrorEnvelope(res, 503, 'SERVICE_UNAVAILABLE', '/public/v1/sectors');
    } finally {
      await locker.query('COMMIT');
    }
    expect((await t.app.inject({ url: '/public/v1/sectors', headers: tenant.headers })).statusCode).toBe(200);
  });
});
