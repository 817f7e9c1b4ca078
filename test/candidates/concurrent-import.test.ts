// Overlapping candidate imports running at once must all succeed: rows are upserted in one order
// (by normalized e-mail), so two imports never wait on each other's rows in a cycle, and a
// deadlock or serialization failure that still happens is retried once inside the service.
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTransientTransactionError } from '../../src/db/client.ts';
import { applicant, countEvents, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

// PGlite is one connection serving one transaction at a time: imports cannot overlap there, so
// there is nothing to deadlock. This runs on PostgreSQL (DATABASE_URL), as CI does.
describe.skipIf(!onPostgres)('concurrent candidate imports (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Ten imports share a five-connection pool: on a busy machine the wait for a connection can
    // pass the default 5 s pool timeout (503). This test is about deadlocks, so it waits as long as needed.
    t = await buildTestApp({ DB_POOL_TIMEOUT_MS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A deterministic shuffle, so each import touches the shared rows in its own order. */
  function shuffled<T>(items: T[], seed: number): T[] {
    const out = [...items];
    let state = seed;
    for (let i = out.length - 1; i > 0; i--) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      const j = state % (i + 1);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  it('10 overlapping imports into one pipeline all answer 200, and every candidate exists once', async () => {
    const tenant = await t.tenant();
    const listingId = await makeListing(t, tenant.companyId);
    const emails = Array.from({ length: 300 }, (_, i) => `person${i}@example.com`);
    const imports = Array.from({ length: 10 }, (_, n) =>
      shuffled(emails, n + 1)
        .slice(0, 200)
        // Letter case differs between imports: the order must be by the normalized e-mail.
        .map((email, i) => applicant(i % 2 === 0 ? email.toUpperCase() : email)),
    );

    const responses = await Promise.all(
      imports.map((candidates) =>
        t.app.inject({
          method: 'POST',
          url: '/public/v1/candidates/import',
          headers: tenant.headers,
          payload: { jobListingId: listingId, candidates },
        }),
      ),
    );
    expect(responses.map((res) => res.statusCode)).toEqual(Array(10).fill(200));

    const touched = new Set(imports.flat().map((row) => row.email.toLowerCase()));
    const list = await t.app.inject({ method: 'GET', url: '/public/v1/candidates?size=1', headers: tenant.headers });
    expect(list.json().pagination.totalElements).toBe(touched.size);
    // Each candidate was created once and entered the pipeline once, whichever import won.
    expect(await countEvents(t, tenant.companyId, 'candidate.created')).toBe(touched.size);
    expect(await countEvents(t, tenant.companyId, 'application.created')).toBe(touched.size);
  });
});

describe('the retry rule', () => {
  it('retries a deadlock or serialization failure (through Drizzle’s wrapper), nothing else', () => {
    const pgError = (code: string) => Object.assign(new Error('pg'), { code });
    expect(isTransientTransactionError(new DrizzleQueryError('insert ...', [], pgError('40P01')))).toBe(true);
    expect(isTransientTransactionError(new DrizzleQueryError('insert ...', [], pgError('40001')))).toBe(true);
    expect(isTransientTransactionError(new DrizzleQueryError('insert ...', [], pgError('23505')))).toBe(false);
    expect(isTransientTransactionError(new Error('other'))).toBe(false);
  });
});
