// /metrics during an incident: a scrape answers at once whatever the database does, and the
// backlog gauges (read from the database in the background) are left out while the backlog is
// unknown, never shown as 0 while events may be waiting.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const BACKLOG_GAUGES = [
  'webhook_outbox_events',
  'webhook_outbox_oldest_age_seconds',
  'webhook_deliveries_pending',
  'webhook_deliveries_pending_oldest_age_seconds',
];
/** Longer than a background read's period and timeout together (5 s + 2 s), with room. */
const UNKNOWN_WITHIN_MS = 12_000;

/** The backlog gauges' samples in one scrape, and how long it took. */
async function scrape(t: TestApp): Promise<{ ms: number; backlog: Map<string, number>; text: string }> {
  const started = performance.now();
  const res = await t.app.inject({ url: '/metrics' });
  const ms = performance.now() - started;
  expect(res.statusCode).toBe(200);
  const backlog = new Map<string, number>();
  for (const line of res.body.split('\n')) {
    const name = line.split(/[{ ]/)[0];
    if (!line.startsWith('#') && BACKLOG_GAUGES.includes(name)) backlog.set(name, Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return { ms, backlog, text: res.body };
}

/** Scrapes every 200 ms until `done` holds (each scrape must answer within `fastMs`). */
async function scrapeUntil(t: TestApp, done: (backlog: Map<string, number>) => boolean, fastMs: number) {
  const deadline = Date.now() + UNKNOWN_WITHIN_MS;
  for (;;) {
    const result = await scrape(t);
    expect(result.ms, 'a scrape waited').toBeLessThan(fastMs);
    if (done(result.backlog)) return result;
    if (Date.now() > deadline) throw new Error(`backlog gauges still ${JSON.stringify([...result.backlog])}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const known = (backlog: Map<string, number>) => backlog.size === BACKLOG_GAUGES.length;
const unknown = (backlog: Map<string, number>) => backlog.size === 0;

describe('/metrics with the database unreadable', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t?.close());

  it('leaves the backlog gauges out (not 0) once the database is closed', async () => {
    expect([...(await scrapeUntil(t, known, 5_000)).backlog.values()]).toEqual([0, 0, 0, 0]);
    await t.database.close(); // reopened by no one: every read fails from now on
    const down = await scrapeUntil(t, unknown, 5_000);
    // The figures kept in memory are still there.
    expect(down.text).toMatch(/^process_resident_memory_bytes\{process="api"\} \d+/m);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('/metrics with the backlog tables locked (PostgreSQL)', () => {
  let t: TestApp;
  let locker: pg.Client;
  beforeAll(async () => {
    // Long enough that a scrape waiting for the lock would show.
    t = await buildTestApp({ DB_STATEMENT_TIMEOUT_MS: '15000' });
    locker = new pg.Client({ connectionString: t.databaseUrl });
    await locker.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await t?.close();
  });

  it('answers at once while the lock is held, the backlog gauges left out, and shows them again after', async () => {
    await scrapeUntil(t, known, 5_000);
    await locker.query('BEGIN');
    try {
      await locker.query('LOCK TABLE events, webhook_deliveries IN ACCESS EXCLUSIVE MODE');
      await scrapeUntil(t, unknown, 1_000);
      // Still unknown while the read waits, and still answered at once.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await scrapeUntil(t, unknown, 1_000)).backlog.size).toBe(0);
    } finally {
      await locker.query('COMMIT');
    }
    await scrapeUntil(t, known, 1_000);
  });
});
