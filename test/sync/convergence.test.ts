// An integrator's sync loop converges to the server's exact state while others write: it notes its
// place in the event feed, copies every listing by cursor pages, then follows the feed from that
// place, fetching again each listing an event names (404: deleted). When the writers stop and the
// loop has caught up, its copy equals the database, listing for listing (issue 11, item 3).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  // Writers and the integrator together send more than the default 600 requests a minute.
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
  tenant = await t.tenant();
});
afterAll(() => t.close());

const ALL_STATUSES = ['DRAFT', 'ACTIVE', 'UNDER_REVIEW', 'CLOSED', 'ARCHIVED'].map((s) => `status=${s}`).join('&');

interface Copy {
  status: string;
  position: string;
}

/** A small seeded generator: the same run every time. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
}

async function writer(seed: number, known: string[], operations: number): Promise<void> {
  const next = random(seed);
  for (let i = 0; i < operations; i++) {
    const pick = known[Math.floor(next() * known.length)];
    const roll = next();
    if (roll < 0.3 || !pick) {
      const res = await call('POST', '/public/v1/job-listings', { position: `W${seed}-${i}`, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
      known.push((res.json() as { id: string }).id);
    } else if (roll < 0.55) {
      await call('PATCH', `/public/v1/job-listings/${pick}`, { position: `W${seed}-${i} edited` });
    } else if (roll < 0.7) {
      await call('POST', `/public/v1/job-listings/${pick}/publish`);
    } else if (roll < 0.8) {
      await call('POST', `/public/v1/job-listings/${pick}/close`);
    } else if (roll < 0.85) {
      await call('POST', `/public/v1/job-listings/${pick}/archive`);
    } else {
      await call('DELETE', `/public/v1/job-listings/${pick}`); // DRAFT only; else a 409 changes nothing
    }
  }
}

class Integrator {
  readonly copy = new Map<string, Copy>();
  private place: string | null = null;

  /** Notes the current end of the feed: everything after it will be followed. */
  async notePlace(): Promise<void> {
    for (;;) {
      const res = await call('GET', `/public/v1/events?size=100${this.place ? `&cursor=${this.place}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const { pagination } = res.json() as { pagination: { nextCursor: string | null; resumeCursor: string | null } };
      this.place = pagination.resumeCursor;
      if (!pagination.nextCursor) return;
    }
  }

  /** Copies every listing, by cursor pages of 3, while the writers go on. */
  async copyAll(): Promise<void> {
    const seen = new Set<string>();
    let cursor: string | null = null;
    do {
      const res = await call('GET', `/public/v1/job-listings?${ALL_STATUSES}&size=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: Array<{ id: string; status: string; position: { value: string } }>; pagination: { nextCursor: string | null } };
      for (const item of body.data) {
        expect(seen.has(item.id), 'a listing on two pages').toBe(false);
        seen.add(item.id);
        this.copy.set(item.id, { status: item.status, position: item.position.value });
      }
      cursor = body.pagination.nextCursor;
    } while (cursor);
  }

  /** Follows the feed from its place; answers how many events it read. */
  async follow(): Promise<number> {
    let read = 0;
    for (;;) {
      const res = await call('GET', `/public/v1/events?size=7${this.place ? `&cursor=${this.place}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as {
        data: Array<{ type: string; data: { id: string } }>;
        pagination: { nextCursor: string | null; resumeCursor: string | null };
      };
      const dirty = new Set(body.data.filter((event) => event.type.startsWith('job_listing.')).map((event) => event.data.id));
      for (const id of dirty) {
        const one = await call('GET', `/public/v1/job-listings/${id}`);
        if (one.statusCode === 404) this.copy.delete(id);
        else {
          expect(one.statusCode, one.body).toBe(200);
          const listing = one.json() as { status: string; position: { value: string } };
          this.copy.set(id, { status: listing.status, position: listing.position.value });
        }
      }
      read += body.data.length;
      this.place = body.pagination.resumeCursor;
      if (!body.pagination.nextCursor) return read;
    }
  }
}

it('converges to the exact state of the database under concurrent writes', { timeout: 120_000 }, async () => {
  const known: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await call('POST', '/public/v1/job-listings', { position: `Seed ${i}`, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
    known.push((res.json() as { id: string }).id);
  }
  const integrator = new Integrator();
  let writing = true;
  const writers = Promise.all([1, 2, 3].map((seed) => writer(seed, known, 30))).finally(() => (writing = false));

  await integrator.notePlace();
  await integrator.copyAll();
  let followed = 0;
  while (writing) {
    followed += await integrator.follow();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await writers;
  followed += await integrator.follow();
  // Caught up: reading again finds nothing new.
  expect(await integrator.follow()).toBe(0);

  const truth = await queryRows<{ id: string; status: string; position: string }>(
    t.database.db,
    sql`select id, status, position from job_listings where company_id = ${tenant.companyId}`,
  );
  const expected = new Map(truth.map((row) => [row.id, { status: row.status, position: row.position }]));
  expect(Object.fromEntries(integrator.copy)).toEqual(Object.fromEntries(expected));
  // The run did exercise what it claims: writes happened while the integrator read, deletions included.
  expect(followed).toBeGreaterThan(0);
  const [deleted] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from events where company_id = ${tenant.companyId} and type = 'job_listing.deleted'`,
  );
  expect(deleted.n).toBeGreaterThan(0);
  expect(expected.size).toBeGreaterThan(6);
});
