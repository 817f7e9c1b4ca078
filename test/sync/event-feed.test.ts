// GET /public/v1/events (docs/decisions.md, "Event feed"): the company's events oldest first by
// cursor, deletions included, filtered by type and time, readable by the resource types' read
// scopes, never another company's; an event of a transaction still running never lands behind a
// cursor already answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordEvent } from '../../src/infra/outbox/record-event.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { feedSettled } from '../helpers/events.ts';
import { applicant } from '../helpers/factories.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(() => t.close());

interface FeedPage {
  data: Array<{ id: string; type: string; timestamp: string; companyId: string; data: Record<string, unknown> }>;
  pagination: { page: number; totalElements: number; nextCursor: string | null; resumeCursor?: string | null };
}

async function feed(query: string, headers = tenant.headers): Promise<FeedPage> {
  const res = await t.app.inject({ method: 'GET', url: `/public/v1/events${query}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as FeedPage;
}

/** Waits until the feed shows every event the company has (test/helpers/events.ts). */
const settle = (companyId = tenant.companyId, headers = tenant.headers) => feedSettled(t, companyId, headers);

async function createListing(headers: Record<string, string>, position: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/job-listings',
    headers,
    payload: { position, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' },
  });
  expect(res.statusCode).toBe(201);
  return (res.json() as { id: string }).id;
}

describe('the feed', () => {
  it('answers every event in the order of the changes, deletions included, by cursor and resumable', async () => {
    const a = await createListing(tenant.headers, 'Feed A');
    const b = await createListing(tenant.headers, 'Feed B');
    await t.app.inject({ method: 'POST', url: `/public/v1/job-listings/${a}/publish`, headers: tenant.headers });
    expect((await t.app.inject({ method: 'DELETE', url: `/public/v1/job-listings/${b}`, headers: tenant.headers })).statusCode).toBe(204);

    await settle();
    const all = await feed('?size=100');
    expect(all.data.map((event) => [event.type, (event.data as { id: string }).id])).toEqual([
      ['job_listing.created', a],
      ['job_listing.created', b],
      ['job_listing.published', a],
      ['job_listing.deleted', b],
    ]);
    expect(all.data[0]).toMatchObject({ companyId: tenant.companyId, timestamp: expect.any(String), id: expect.any(String) });
    expect(all.pagination.nextCursor).toBeNull();

    // By cursor, two at a time: the same events, once each.
    const paged: string[] = [];
    let page = await feed('?size=2');
    for (;;) {
      paged.push(...page.data.map((event) => event.id));
      if (!page.pagination.nextCursor) break;
      page = await feed(`?size=2&cursor=${page.pagination.nextCursor}`);
    }
    expect(paged).toEqual(all.data.map((event) => event.id));

    // Caught up: resume later from resumeCursor, and get only what happened since.
    const resume = page.pagination.resumeCursor!;
    expect((await feed(`?size=2&cursor=${resume}`)).data).toEqual([]);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${a}`, headers: tenant.headers, payload: { position: 'Feed A2' } });
    await settle();
    const later = await feed(`?size=2&cursor=${resume}`);
    expect(later.data.map((event) => event.type)).toEqual(['job_listing.updated']);
  });

  it('filters by type and since; a cursor is bound to its filters', async () => {
    const listingId = await createListing(tenant.headers, 'Feed filters');
    await t.app.inject({ method: 'POST', url: `/public/v1/job-listings/${listingId}/publish`, headers: tenant.headers });
    await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: applicant('feed.filter@example.com') },
    });
    await settle();
    const types = (await feed('?type=candidate.created&type=application.created&size=100')).data.map((event) => event.type);
    expect(types.sort()).toEqual(['application.created', 'candidate.created']);

    const cut = new Date(t.clock.now().getTime() + 60_000);
    t.clock.advance(120_000);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${listingId}`, headers: tenant.headers, payload: { position: 'After the cut' } });
    await settle();
    const since = await feed(`?since=${cut.toISOString()}`);
    expect(since.data.map((event) => event.type)).toEqual(['job_listing.updated']);

    const first = await feed('?size=1');
    const res = await t.app.inject({ method: 'GET', url: `/public/v1/events?size=1&type=job_listing.created&cursor=${first.pagination.nextCursor}`, headers: tenant.headers });
    expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/events');
  });

  it('refuses bad input in the envelope', async () => {
    for (const query of ['?type=nope', '?type=ping', '?since=yesterday', '?cursor=abc', '?size=0', '?unknown=1']) {
      const res = await t.app.inject({ method: 'GET', url: `/public/v1/events${query}`, headers: tenant.headers });
      expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/events');
    }
  });
});

describe('scopes and tenants', () => {
  it('shows the types of the read scopes a key holds; 403 without any', async () => {
    await settle();
    const jobsOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['jobs:read']) };
    const types = new Set((await feed('?size=100', jobsOnly)).data.map((event) => event.type.split('.')[0]));
    expect([...types]).toEqual(['job_listing']);
    const asked = await t.app.inject({ method: 'GET', url: '/public/v1/events?type=candidate.created', headers: jobsOnly });
    expectErrorEnvelope(asked, 403, 'FORBIDDEN', '/public/v1/events');
    const none = { 'x-api-key': await t.keyFor(tenant.companyId, ['webhooks:manage', 'jobs:write']) };
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url: '/public/v1/events', headers: none }), 403, 'FORBIDDEN', '/public/v1/events');
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url: '/public/v1/events' }), 401, 'UNAUTHORIZED', '/public/v1/events');
  });

  it("never shows another company's events, nor accepts its cursor", async () => {
    const other = await t.tenant();
    await createListing(other.headers, 'Other company');
    await settle(other.companyId, other.headers);
    await settle();
    const mine = await feed('?size=100');
    const theirs = await feed('?size=100', other.headers);
    expect(theirs.data.length).toBe(1);
    expect(theirs.data.every((event) => event.companyId === other.companyId)).toBe(true);
    expect(mine.data.every((event) => event.companyId === tenant.companyId)).toBe(true);
    const myCursor = (await feed('?size=1')).pagination.nextCursor!;
    const res = await t.app.inject({ method: 'GET', url: `/public/v1/events?size=1&cursor=${myCursor}`, headers: other.headers });
    expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/public/v1/events');
  });
});

// Two connections at once: only PostgreSQL (PGlite runs one transaction at a time).
describe.runIf(Boolean(process.env.DATABASE_URL))('a transaction still running', () => {
  it('holds back later events until it ends, so its event is not skipped by a reader', async () => {
    const own = await t.tenant();
    await createListing(own.headers, 'Before');
    await settle(own.companyId, own.headers);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let recorded!: () => void;
    const inserted = new Promise<void>((resolve) => (recorded = resolve));
    // A slow transaction records its event first, then stays open...
    const slow = t.database.db.transaction(async (tx) => {
      await recordEvent(tx, { companyId: own.companyId, type: 'job_listing.updated', data: { id: 'slow' } as never, occurredAt: t.clock.now() });
      recorded();
      await released;
    });
    await inserted;
    // ...while a fast one commits an event after it.
    await createListing(own.headers, 'During');
    const during = await feed('?size=100', own.headers);
    expect(during.data.map((event) => (event.data as { position?: { original: string } }).position?.original)).toEqual(['Before']);
    release();
    await slow;
    await settle(own.companyId, own.headers);
    const after = await feed(`?size=100&cursor=${during.pagination.resumeCursor}`, own.headers);
    expect(after.data.map((event) => (event.data as { id: string }).id === 'slow' || event.type)).toEqual([true, 'job_listing.created']);
  });
});
