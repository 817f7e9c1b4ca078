// Keyset pagination on every list (docs/decisions.md, "Pagination"): pages read by cursor never
// repeat or skip an item when items are inserted or deleted between pages; a cursor is bound to its
// list, company and filters; a bad cursor is a 422 in the envelope; updatedSince lists in change order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { encodeCursor } from '../../src/shared/pagination.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(() => t.close());

interface PageBody<T> {
  data: T[];
  pagination: { page: number; size: number; totalElements: number; totalPages: number; nextCursor: string | null; resumeCursor?: string | null };
}

async function get<T = { id: string }>(url: string, headers = tenant.headers): Promise<PageBody<T>> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PageBody<T>;
}

const withCursor = (url: string, cursor: string) => `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;

async function createListing(position: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/job-listings',
    headers: tenant.headers,
    payload: { position, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

describe('job listings by cursor', () => {
  it('walks every listing once while listings are created and deleted between pages', async () => {
    const before: string[] = [];
    for (let i = 0; i < 7; i++) before.push(await createListing(`Role ${i}`));
    const seen: string[] = [];
    let body = await get('/public/v1/job-listings?size=2');
    expect(body.pagination.page).toBe(0);
    let pages = 0;
    for (;;) {
      seen.push(...body.data.map((item) => item.id));
      if (!body.pagination.nextCursor) break;
      // Between pages: a new listing (newest first: before the cursor, so not on a later page) and
      // the deletion of one not yet seen (it must simply not appear; nothing else may shift).
      await createListing(`Inserted ${pages}`);
      const unseen = before.filter((id) => !seen.includes(id));
      if (pages === 0 && unseen.length > 2) {
        const victim = unseen[1];
        expect((await t.app.inject({ method: 'DELETE', url: `/public/v1/job-listings/${victim}`, headers: tenant.headers })).statusCode).toBe(204);
        before.splice(before.indexOf(victim), 1);
      }
      body = await get(withCursor('/public/v1/job-listings?size=2', body.pagination.nextCursor));
      pages++;
      expect(body.pagination.page).toBe(pages);
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...before].sort());
    expect(body.pagination.nextCursor).toBeNull();
  });

  it('answers nextCursor on offset pages too, and null on the last one', async () => {
    const first = await get('/public/v1/job-listings?size=3&page=0');
    expect(typeof first.pagination.nextCursor).toBe('string');
    const last = await get(`/public/v1/job-listings?size=3&page=${first.pagination.totalPages - 1}`);
    expect(last.pagination.nextCursor).toBeNull();
    const next = await get(withCursor('/public/v1/job-listings?size=3', first.pagination.nextCursor!));
    const page1 = await get('/public/v1/job-listings?size=3&page=1');
    expect(next.data.map((item) => item.id)).toEqual(page1.data.map((item) => item.id));
    expect(next.pagination.page).toBe(1);
  });
});

describe('bad cursors are refused in the envelope', () => {
  let cursor: string;
  beforeAll(async () => {
    cursor = (await get('/public/v1/job-listings?size=1')).pagination.nextCursor!;
    expect(cursor).toBeTruthy();
  });

  const refused = async (url: string, headers = tenant.headers, field = 'cursor') => {
    const res = await t.app.inject({ method: 'GET', url, headers });
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', url.split('?')[0]);
    expect(body.details).toEqual([expect.objectContaining({ field })]);
  };

  it('garbage, cut or edited cursors', async () => {
    await refused('/public/v1/job-listings?cursor=garbage');
    await refused(`/public/v1/job-listings?cursor=${cursor.slice(0, -3)}`);
    const [payload, check] = cursor.split('.');
    const edited = Buffer.from(Buffer.from(payload, 'base64url').toString().replace(/"p":1/, '"p":7')).toString('base64url');
    await refused(`/public/v1/job-listings?cursor=${edited}.${check}`);
    await refused(`/public/v1/job-listings?cursor=${'x'.repeat(2000)}`);
    await refused(`/public/v1/job-listings?cursor=${encodeURIComponent('{"s":1}.abc')}`);
  });

  it('a cursor signed with the server key but impossible keys (never reaches SQL as a 500)', async () => {
    const body = JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString()) as { s: string; p: number; k: string[] };
    for (const keys of [['2024-02-31T00:00:00.000Z', body.k[1]], [body.k[0], 'not-a-uuid'], [body.k[0]], [1e39, body.k[1]]]) {
      await refused(`/public/v1/job-listings?cursor=${encodeCursor(t.ctx.secrets, body.s, body.p, keys as string[])}`);
    }
    await refused(`/public/v1/job-listings?cursor=${encodeCursor(t.ctx.secrets, body.s, -1, body.k)}`);
  });

  it('a cursor of another list, other filters or another company', async () => {
    await refused(`/public/v1/candidates?cursor=${cursor}`);
    await refused(`/public/v1/applications?cursor=${cursor}`);
    await refused(`/public/v1/job-listings?status=ACTIVE&cursor=${cursor}`);
    await refused(`/public/v1/job-listings?updatedSince=2020-01-01T00:00:00Z&cursor=${cursor}`);
    const other = await t.tenant();
    await refused(`/public/v1/job-listings?cursor=${cursor}`, other.headers);
  });

  it('a cursor together with page, on every list of the document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>>; parameters?: Array<{ in: string; name: string; example?: string }> }>>;
    };
    const checked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      const parameters = item.get?.parameters ?? [];
      if (!parameters.some((parameter) => parameter.name === 'cursor')) continue;
      // The settings lists (members, invitations) take a user's access token only; they spread the
      // same PageQuery, which is what the refusal is keyed on.
      if (!item.get!.security?.some((requirement) => 'ApiKeyAuth' in requirement)) continue;
      let url = path;
      for (const parameter of parameters) if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, parameter.example!);
      await refused(`${url}?page=0&cursor=${cursor}`, tenant.headers, 'page');
      checked.push(path);
    }
    expect(checked).toEqual(
      expect.arrayContaining(['/public/v1/job-listings', '/public/v1/applications', '/public/v1/applications/{id}/history', '/public/v1/candidates']),
    );
    expect(checked.length).toBeGreaterThanOrEqual(7);
  });

  it('routes that are not lists are left alone', async () => {
    // Not an operation of the API: it reads no query and answers as always.
    const health = await t.app.inject({ url: '/healthz?cursor=x&page=0' });
    expect(health.statusCode, health.body).toBe(200);
    // An operation without pages refuses both as it refuses any parameter it does not document.
    const enums = await t.app.inject({ url: '/public/v1/enums?page=0&cursor=x', headers: tenant.headers });
    const body = expectErrorEnvelope(enums, 422, 'VALIDATION_ERROR', '/public/v1/enums');
    expect(body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'cursor' }), expect.objectContaining({ field: 'page' })]));
    expect(JSON.stringify(body.details)).not.toContain('cannot be combined');
  });
});

describe('updatedSince lists in change order, resumable', () => {
  it('orders by (updatedAt, id) ascending and resumes after the last item seen', async () => {
    const own = await t.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/v1/job-listings',
        headers: own.headers,
        payload: { position: `Sync ${i}`, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' },
      });
      ids.push((res.json() as { id: string }).id);
      t.clock.advance(10);
    }
    // The oldest one changes last: it moves to the end of the change order.
    expect(
      (await t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${ids[0]}`, headers: own.headers, payload: { position: 'Sync 0 changed' } }))
        .statusCode,
    ).toBe(200);
    const url = '/public/v1/job-listings?updatedSince=2000-01-01T00:00:00Z&size=3';
    const first = await get(url, own.headers);
    expect(first.data.map((item) => item.id)).toEqual([ids[1], ids[2], ids[3]]);
    const second = await get(withCursor(url, first.pagination.nextCursor!), own.headers);
    expect(second.data.map((item) => item.id)).toEqual([ids[0]]);
    expect(second.pagination.nextCursor).toBeNull();
    const resume = second.pagination.resumeCursor!;
    expect(resume).toBeTruthy();
    // Caught up: nothing new; the resume cursor stays where it was.
    const idle = await get(withCursor(url, resume), own.headers);
    expect(idle.data).toEqual([]);
    expect(idle.pagination.resumeCursor).toBe(resume);
    // A later change, and only it, comes after the resume point.
    t.clock.advance(10);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${ids[2]}`, headers: own.headers, payload: { position: 'Sync 2 changed' } });
    const later = await get(withCursor(url, resume), own.headers);
    expect(later.data.map((item) => item.id)).toEqual([ids[2]]);
  });
});

describe('every list pages by cursor', () => {
  it('applications, their history, candidates (plain, searched, changed since) and webhooks', async () => {
    const own = await t.tenant();
    const listingId = await makeListing(t, own.companyId, 'ACTIVE');
    const applicationIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/public/v1/applications',
        headers: own.headers,
        payload: { jobListingId: listingId, candidate: applicant(`walker${i}@example.com`, { headline: 'Rust walker' }) },
      });
      expect(res.statusCode, res.body).toBe(201);
      applicationIds.push((res.json() as { id: string }).id);
    }
    for (const status of ['IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED']) {
      await t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${applicationIds[0]}/status`, headers: own.headers, payload: { status } });
    }
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'POST', url: '/public/v1/webhooks', headers: own.headers, payload: { url: `http://127.0.0.1:9/${i}`, events: ['ping'] } });
    }
    const lists = [
      '/public/v1/applications',
      `/public/v1/applications?jobListingId=${listingId}&status=ACTIVE`,
      `/public/v1/applications/${applicationIds[0]}/history`,
      '/public/v1/candidates',
      '/public/v1/candidates?q=rust',
      '/public/v1/candidates?updatedSince=2000-01-01T00:00:00Z',
      '/public/v1/webhooks',
    ];
    for (const url of lists) {
      const all = await get<{ id: string }>(`${url}${url.includes('?') ? '&' : '?'}size=100`, own.headers);
      const seen: Array<{ id: string }> = [];
      let body = await get<{ id: string }>(`${url}${url.includes('?') ? '&' : '?'}size=2`, own.headers);
      for (;;) {
        seen.push(...body.data);
        if (!body.pagination.nextCursor) break;
        body = await get(withCursor(`${url}${url.includes('?') ? '&' : '?'}size=2`, body.pagination.nextCursor), own.headers);
      }
      expect(seen, url).toEqual(all.data);
      expect(all.data.length, url).toBeGreaterThanOrEqual(3);
    }
  });
});
