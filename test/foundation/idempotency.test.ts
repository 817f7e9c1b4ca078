import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { sweepRetention } from '../../src/maintenance/retention.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const listing = { position: 'Welder', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' };

async function count(companyId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from job_listings where company_id = ${companyId}`,
  );
  return row.n;
}

it('replays the first answer for the same key and body, without doing the work again', async () => {
  const tenant = await t.tenant();
  const headers = { ...tenant.headers, 'idempotency-key': 'create-welder-1' };
  const first = await t.app.inject({ method: 'POST', url: '/public/v1/job-listings', headers, payload: listing });
  expect(first.statusCode).toBe(201);
  expect(first.headers['idempotent-replayed']).toBeUndefined();
  const again = await t.app.inject({ method: 'POST', url: '/public/v1/job-listings', headers, payload: listing });
  expect(again.statusCode).toBe(201);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json()).toEqual(first.json());
  expect(await count(tenant.companyId)).toBe(1);
});

it('refuses the same key with a different body (422) and keeps keys per company', async () => {
  const a = await t.tenant();
  const b = await t.tenant();
  const key = { 'idempotency-key': 'shared-key' };
  const url = '/public/v1/job-listings';
  expect((await t.app.inject({ method: 'POST', url, headers: { ...a.headers, ...key }, payload: listing })).statusCode).toBe(201);
  const other = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...a.headers, ...key },
    payload: { ...listing, position: 'Painter' },
  });
  expect(other.statusCode).toBe(422);
  expect(other.json().details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  // Another company using the same key string is a different request altogether.
  const theirs = await t.app.inject({ method: 'POST', url, headers: { ...b.headers, ...key }, payload: listing });
  expect(theirs.statusCode).toBe(201);
  expect(theirs.headers['idempotent-replayed']).toBeUndefined();
});

it('forgets a key after 24 hours', async () => {
  const tenant = await t.tenant();
  const headers = { ...tenant.headers, 'idempotency-key': 'daily' };
  const url = '/public/v1/job-listings';
  await t.app.inject({ method: 'POST', url, headers, payload: listing });
  t.clock.advance(DAY_MS + 1000);
  try {
    const later = await t.app.inject({ method: 'POST', url, headers, payload: listing });
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await count(tenant.companyId)).toBe(2);
  } finally {
    t.clock.advance(-(DAY_MS + 1000));
  }
});

it('answers 409 while the first request with the key is still running', async () => {
  const tenant = await t.tenant();
  // A claimed key with no answer yet is what a request in flight looks like.
  const hash = createHash('sha256').update(`POST /public/v1/job-listings\n${JSON.stringify(listing)}`).digest('hex');
  await t.database.db.execute(
    sql`insert into idempotency_keys (company_id, idempotency_key, request_hash, created_at) values (${tenant.companyId}, 'in-flight', ${hash}, ${t.clock.now().toISOString()})`,
  );
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/job-listings',
    headers: { ...tenant.headers, 'idempotency-key': 'in-flight' },
    payload: listing,
  });
  expect(res.statusCode).toBe(409);
  expect(res.json()).toMatchObject({ error: 'CONFLICT' });
});

it('refuses a malformed key', async () => {
  const tenant = await t.tenant();
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/job-listings',
    headers: { ...tenant.headers, 'idempotency-key': 'x'.repeat(300) },
    payload: listing,
  });
  expect(res.statusCode).toBe(422);
});

it('the scheduled sweep deletes keys past their 24-hour window and keeps the others', async () => {
  const tenant = await t.tenant();
  const keys = async () =>
    (
      await queryRows<{ key: string }>(
        t.database.db,
        sql`select idempotency_key as key from idempotency_keys where company_id = ${tenant.companyId} order by 1`,
      )
    ).map((row) => row.key);
  const post = (key: string) =>
    t.app.inject({ method: 'POST', url: '/public/v1/job-listings', headers: { ...tenant.headers, 'idempotency-key': key }, payload: listing });
  expect((await post('old-key')).statusCode).toBe(201);
  t.clock.advance(DAY_MS - 60_000);
  expect((await post('new-key')).statusCode).toBe(201);
  t.clock.advance(2 * 60_000); // old-key is now just past 24 hours, new-key two minutes old
  expect((await sweepRetention(t.ctx, t.config.retention)).idempotencyKeys).toBeGreaterThanOrEqual(1);
  expect(await keys()).toEqual(['new-key']);
});

it('keeps a 422 under its key: the schema\'s and the later checks\' alike, replayed with the first body', async () => {
  const tenant = await t.tenant();
  const url = '/public/v1/job-listings';
  for (const [key, payload] of [
    ['refused-by-schema', { ...listing, positionType: 'FREELANCE' }],
    ['refused-after-schema', { ...listing, currency: 'XAU' }],
  ] as const) {
    const headers = { ...tenant.headers, 'idempotency-key': key };
    const first = await t.app.inject({ method: 'POST', url, headers, payload });
    expect(first.statusCode).toBe(422);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await t.app.inject({ method: 'POST', url, headers, payload });
    expect(again.statusCode, key).toBe(422);
    expect(again.headers['idempotent-replayed'], key).toBe('true');
    expect(again.json()).toEqual(first.json());
    // The key is taken: another body under it is refused as a different request.
    const other = await t.app.inject({ method: 'POST', url, headers, payload: listing });
    expect(other.json().details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  }
  expect(await count(tenant.companyId)).toBe(0);
});
