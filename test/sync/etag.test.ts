// ETag on single-resource GETs and If-Match on PATCH of job listings (docs/decisions.md, "Entity
// tags"): a stale If-Match is a 412 in the envelope and changes nothing; of two writers holding the
// same version, exactly one wins. If-None-Match with the current tag answers 304 ("Conditional GET").
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTag } from '../../src/shared/etag.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, countEvents, makeListing } from '../helpers/factories.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...tenant.headers, ...headers } });
const patch = (id: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${id}`, headers: { ...tenant.headers, ...headers }, payload });

describe('job listings', () => {
  it('tags each version; PATCH with the current tag succeeds and answers the next one', async () => {
    const id = await makeListing(t, tenant.companyId, 'DRAFT');
    const first = await get(`/public/v1/job-listings/${id}`);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/);
    expect((await get(`/public/v1/job-listings/${id}`)).headers.etag).toBe(tag);

    const updated = await patch(id, { position: 'Tagged' }, { 'if-match': tag });
    expect(updated.statusCode, updated.body).toBe(200);
    const next = updated.headers.etag as string;
    expect(next).not.toBe(tag);
    expect((await get(`/public/v1/job-listings/${id}`)).headers.etag).toBe(next);

    // Without If-Match nothing changes from before; `*` and a list holding the tag match too.
    expect((await patch(id, { position: 'Untagged' })).statusCode).toBe(200);
    const now = (await get(`/public/v1/job-listings/${id}`)).headers.etag as string;
    expect((await patch(id, { position: 'Star' }, { 'if-match': '*' })).statusCode).toBe(200);
    const latest = (await get(`/public/v1/job-listings/${id}`)).headers.etag as string;
    expect((await patch(id, { position: 'Listed' }, { 'if-match': `"nope", ${latest}` })).statusCode).toBe(200);
    expect(now).not.toBe(latest);
  });

  it('a stale or weak tag is a 412 in the envelope and changes nothing', async () => {
    const id = await makeListing(t, tenant.companyId, 'DRAFT');
    const stale = (await get(`/public/v1/job-listings/${id}`)).headers.etag as string;
    expect((await patch(id, { position: 'Someone else' })).statusCode).toBe(200);
    const events = await countEvents(t, tenant.companyId, 'job_listing.updated');
    const url = `/public/v1/job-listings/${id}`;
    for (const ifMatch of [stale, `W/${(await get(url)).headers.etag as string}`, '"garbage"']) {
      const res = await patch(id, { position: 'Mine' }, { 'if-match': ifMatch });
      expectErrorEnvelope(res, 412, 'PRECONDITION_FAILED', url);
    }
    expect(((await get(url)).json() as { position: { original: string } }).position.original).toBe('Someone else');
    expect(await countEvents(t, tenant.companyId, 'job_listing.updated')).toBe(events);
  });

  it('of two writers holding the same version, exactly one wins', async () => {
    const id = await makeListing(t, tenant.companyId, 'DRAFT');
    const tag = (await get(`/public/v1/job-listings/${id}`)).headers.etag as string;
    const results = await Promise.all(['A', 'B'].map((who) => patch(id, { position: `Writer ${who}` }, { 'if-match': tag })));
    expect(results.map((res) => res.statusCode).sort()).toEqual([200, 412]);
  });

  it('the language is part of the version', async () => {
    const id = await makeListing(t, tenant.companyId, 'DRAFT');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/public/v1/job-listings/${id}/translations/de`,
      headers: tenant.headers,
      payload: { position: 'Backend-Entwickler' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const english = (await get(`/public/v1/job-listings/${id}`)).headers.etag as string;
    const german = (await get(`/public/v1/job-listings/${id}`, { 'accept-language': 'de' })).headers.etag as string;
    expect(german).not.toBe(english);
    // A tag read in German matches a PATCH sent in German, not one sent without a language.
    expect((await patch(id, { salaryBase: 1 }, { 'if-match': german })).statusCode).toBe(412);
    expect((await patch(id, { salaryBase: 1 }, { 'if-match': german, 'accept-language': 'de' })).statusCode).toBe(200);
  });

  it('state rules and missing listings answer as without If-Match', async () => {
    const archived = await makeListing(t, tenant.companyId, 'ARCHIVED');
    const tag = (await get(`/public/v1/job-listings/${archived}`)).headers.etag as string;
    expect((await patch(archived, { position: 'x' }, { 'if-match': tag })).statusCode).toBe(409);
    const missing = '00000000-0000-4000-8000-000000000000';
    expect((await patch(missing, { position: 'x' }, { 'if-match': tag })).statusCode).toBe(404);
    const other = await t.tenant();
    const theirs = await t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${archived}`, headers: { ...other.headers, 'if-match': '*' }, payload: { position: 'x' } });
    expect(theirs.statusCode).toBe(404);
  });
});

describe('other single resources', () => {
  it('applications, candidates and webhooks carry an ETag that changes with them', async () => {
    const listingId = await makeListing(t, tenant.companyId, 'ACTIVE');
    const submitted = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: applicant('etag@example.com') },
    });
    const application = submitted.json() as { id: string; jobSeekerId: string };
    const applicationTag = (await get(`/public/v1/applications/${application.id}`)).headers.etag;
    const candidateTag = (await get(`/public/v1/candidates/${application.jobSeekerId}`)).headers.etag;
    expect(applicationTag).toMatch(/^".+"$/);
    expect(candidateTag).toMatch(/^".+"$/);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${application.id}/status`, headers: tenant.headers, payload: { status: 'OFFER' } });
    expect((await get(`/public/v1/applications/${application.id}`)).headers.etag).not.toBe(applicationTag);
    expect((await get(`/public/v1/candidates/${application.jobSeekerId}`)).headers.etag).not.toBe(candidateTag);

    const hook = await t.app.inject({ method: 'POST', url: '/public/v1/webhooks', headers: tenant.headers, payload: { url: 'http://127.0.0.1:9/h', events: ['ping'] } });
    const hookId = (hook.json() as { id: string }).id;
    const hookTag = (await get(`/public/v1/webhooks/${hookId}`)).headers.etag;
    expect(hookTag).toMatch(/^".+"$/);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/webhooks/${hookId}`, headers: tenant.headers, payload: { active: false } });
    expect((await get(`/public/v1/webhooks/${hookId}`)).headers.etag).not.toBe(hookTag);
  });
});

describe('conditional GET (If-None-Match)', () => {
  /** Every representation that carries an ETag: 304 with no body while the tag is current. */
  async function expectRevalidates(url: string, headers: Record<string, string> = {}) {
    const fresh = await get(url, headers);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const tag = fresh.headers.etag as string;
    expect(tag).toMatch(/^".+"$/);
    for (const condition of [tag, `W/${tag}`, `"stale", ${tag}`, '*']) {
      const res = await get(url, { ...headers, 'if-none-match': condition });
      expect(res.statusCode, `${url} If-None-Match: ${condition}`).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(tag);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['ratelimit-policy']).toBeTruthy();
      expect(res.headers['x-request-id']).toBeTruthy();
    }
    const head = await t.app.inject({ method: 'HEAD', url, headers: { ...tenant.headers, ...headers, 'if-none-match': tag } });
    expect(head.statusCode).toBe(304);
    const stale = await get(url, { ...headers, 'if-none-match': '"stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(fresh.body);
    return tag;
  }

  it('answers 304 on every resource that sends an ETag, and 200 once it changed', async () => {
    const listingId = await makeListing(t, tenant.companyId, 'ACTIVE');
    const listingTag = await expectRevalidates(`/public/v1/job-listings/${listingId}`);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/job-listings/${listingId}`, headers: tenant.headers, payload: { position: 'Changed' } });
    expect((await get(`/public/v1/job-listings/${listingId}`, { 'if-none-match': listingTag })).statusCode).toBe(200);

    const submitted = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: listingId, candidate: applicant('revalidate@example.com') },
    });
    const application = submitted.json() as { id: string; jobSeekerId: string };
    const applicationTag = await expectRevalidates(`/public/v1/applications/${application.id}`);
    const candidateTag = await expectRevalidates(`/public/v1/candidates/${application.jobSeekerId}`);
    await t.app.inject({ method: 'PATCH', url: `/public/v1/applications/${application.id}/status`, headers: tenant.headers, payload: { status: 'OFFER' } });
    expect((await get(`/public/v1/applications/${application.id}`, { 'if-none-match': applicationTag })).statusCode).toBe(200);
    expect((await get(`/public/v1/candidates/${application.jobSeekerId}`, { 'if-none-match': candidateTag })).statusCode).toBe(200);

    const hook = await t.app.inject({ method: 'POST', url: '/public/v1/webhooks', headers: tenant.headers, payload: { url: 'http://127.0.0.1:9/h', events: ['ping'] } });
    const hookId = (hook.json() as { id: string }).id;
    await expectRevalidates(`/public/v1/webhooks/${hookId}`);
  });

  it('reference data lists carry an ETag of their content and revalidate', async () => {
    for (const url of ['/public/v1/sectors', '/public/v1/tags', '/public/v1/enums']) {
      const tag = await expectRevalidates(url);
      expect((await get(url)).headers.etag).toBe(tag);
    }
    expect((await get('/public/v1/sectors')).headers.etag).not.toBe((await get('/public/v1/tags')).headers.etag);
  });

  it('a reference list whose content changed gets the tag of its new content, not the one last made', async () => {
    const before = await get('/public/v1/tags');
    await get('/public/v1/tags');
    await t.database.db.execute(sql`insert into tags (id, name, tag_type) values (gen_random_uuid(), 'Revalidated', 'SKILL')`);
    const after = await get('/public/v1/tags');
    expect(after.body).not.toBe(before.body);
    expect(after.headers.etag).toBe(entityTag(after.body, ''));
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect((await get('/public/v1/tags', { 'if-none-match': before.headers.etag as string })).statusCode).toBe(200);
    // The same content answers the same tag again, interleaved with another route's.
    expect((await get('/public/v1/enums')).headers.etag).toBe((await get('/public/v1/enums')).headers.etag);
    expect((await get('/public/v1/tags')).headers.etag).toBe(after.headers.etag);
  });

  it('leaves errors and answers without an ETag alone', async () => {
    const missing = await get('/public/v1/job-listings/00000000-0000-4000-8000-000000000000', { 'if-none-match': '*' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('the document names the 304 and If-None-Match on each operation whose 200 has an ETag', async () => {
    type Operation = { operationId: string; parameters?: Array<{ in: string; name: string }>; responses: Record<string, { headers?: Record<string, unknown> }> };
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const tagged = Object.values(doc.paths).flatMap((item) => Object.entries(item).filter(([method, op]) => method === 'get' && op.responses['200']?.headers?.ETag).map(([, op]) => op));
    expect(tagged.map((op) => op.operationId)).toEqual(expect.arrayContaining(['getJobListing', 'getApplication', 'getCandidate', 'getWebhookSubscription', 'listSectors', 'listTags', 'getEnums']));
    for (const op of tagged) {
      expect(op.responses['304'], op.operationId).toBeDefined();
      expect(op.parameters?.some((p) => p.in === 'header' && p.name === 'if-none-match'), op.operationId).toBe(true);
    }
  });
});
