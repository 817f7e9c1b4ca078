// The activity timeline of a candidate and of an application: one list, newest first, by cursor,
// merged from the stage history, the notes and the recorded events (files, erasure). Pages read by
// cursor give exactly the full list, however many entries share a millisecond; the application's
// timeline keeps only its own entries; tenancy (404) and scope (403).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneDispatchedEvents } from '../../src/infra/outbox/prune.ts';
import { markEventsDispatched } from '../../src/infra/outbox/repo.ts';
import { queryRows } from '../../src/db/client.ts';
import { sql } from 'drizzle-orm';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { recordTestEvent } from '../helpers/events.ts';
import { makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

type Json = Record<string, unknown>;

let t: TestApp;
let tenant: Tenant;
let keyId: string;
let listing: string;

const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const step = () => t.clock.advance(1000);

async function ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers = tenant.headers): Promise<Json> {
  const response = await t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.body ? (response.json() as Json) : {};
}

async function apply(): Promise<{ applicationId: string; candidateId: string }> {
  const application = await ok('POST', '/public/v1/applications', { jobListingId: listing, candidate: { firstName: 'Ada', lastName: 'Lovelace', email: email('ada') } });
  return { applicationId: String(application.id), candidateId: String((application.candidate as Json).id) };
}

/** Every entry, read by cursor `size` at a time. */
async function readAll(url: string, size: number): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await ok('GET', `${url}?size=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...(page.data as Json[]));
    cursor = (page.pagination as Json).nextCursor as string | null;
    expect(++pages).toBeLessThan(200);
  } while (cursor);
  return items;
}

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
  const [key] = await queryRows<{ id: string }>(t.database.db, sql`select id from api_keys where company_id = ${tenant.companyId}`);
  keyId = key.id;
  listing = await makeListing(t, tenant.companyId);
});
afterAll(async () => t.close());

describe("a candidate's activity", () => {
  it('lists applied, stage moves with who and why, notes written, edited and deleted, and files, newest first', async () => {
    const { applicationId, candidateId } = await apply();
    step();
    await ok('PATCH', `/public/v1/applications/${applicationId}/status`, { status: 'IN_REVIEW', reason: 'Strong API background' });
    step();
    const note = await ok('POST', `/public/v1/candidates/${candidateId}/notes`, { body: 'Phone screen went well.', applicationId });
    step();
    await ok('PATCH', `/public/v1/candidates/${candidateId}/notes/${String(note.id)}`, { body: 'Phone screen went well; May start.' });
    step();
    const gone = await ok('POST', `/public/v1/candidates/${candidateId}/notes`, { body: 'A typo.' });
    step();
    await ok('DELETE', `/public/v1/candidates/${candidateId}/notes/${String(gone.id)}`);
    step();
    // Files: the documents module records these events; the timeline lists them as recorded.
    const fileId = randomUUID();
    await recordTestEvent(t.database.db, {
      companyId: tenant.companyId,
      type: 'candidate.file_added',
      data: { file: { id: fileId, candidateId, applicationId, kind: 'RESUME', fileName: 'cv.pdf', size: 1234, contentType: 'application/pdf' } },
      occurredAt: t.clock.now(),
    });
    step();
    await recordTestEvent(t.database.db, {
      companyId: tenant.companyId,
      type: 'candidate.file_removed',
      data: { file: { id: fileId, candidateId, applicationId: null, kind: 'RESUME', fileName: 'cv.pdf' } },
      occurredAt: t.clock.now(),
    });

    const page = await ok('GET', `/public/v1/candidates/${candidateId}/activity`);
    const items = page.data as Json[];
    expect(items.map((item) => item.type)).toEqual([
      'candidate.file_removed',
      'candidate.file_added',
      'note.deleted',
      'note.created',
      'note.updated',
      'note.created',
      'application.status_changed',
      'application.created',
      'candidate.created',
    ]);
    expect((page.pagination as Json).totalElements).toBe(9);
    const byKey = { type: 'API_KEY', id: keyId, label: 'test key' };
    expect(items[0]).toMatchObject({ file: { id: fileId, fileName: 'cv.pdf' }, applicationId: null, actor: null });
    expect(items[1]).toMatchObject({ applicationId, file: { kind: 'RESUME' } });
    expect(items[2]).toMatchObject({ note: { id: gone.id, body: null }, actor: byKey, applicationId: null });
    expect(items[3]).toMatchObject({ id: gone.id, note: { id: gone.id, body: null } });
    expect(items[4]).toMatchObject({ note: { id: note.id, body: 'Phone screen went well; May start.' }, actor: byKey, applicationId });
    expect(items[4].id).not.toBe(note.id);
    expect(items[5]).toMatchObject({ id: note.id, actor: byKey });
    expect(items[6]).toMatchObject({
      actor: byKey,
      applicationId,
      stageMove: { fromStatus: 'ACTIVE', toStatus: 'IN_REVIEW', reason: 'Strong API background', jobListingId: listing },
    });
    expect(items[7]).toMatchObject({ actor: byKey, application: { id: applicationId, jobListingId: listing, source: 'EXTERNAL', status: 'ACTIVE' } });
    expect(items[8]).toMatchObject({ id: candidateId, actor: null, candidate: { id: candidateId, source: 'EXTERNAL' } });
    const times = items.map((item) => Date.parse(String(item.occurredAt)));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);

    // The application's timeline: only its own entries (not the note on the candidate as a whole, nor the file no longer tied to it).
    const own = (await ok('GET', `/public/v1/applications/${applicationId}/activity`)).data as Json[];
    expect(own.map((item) => item.type)).toEqual(['candidate.file_added', 'note.updated', 'note.created', 'application.status_changed', 'application.created']);
  });

  it('shows an import as the candidate added with source IMPORTED', async () => {
    const imported = await ok('POST', '/public/v1/candidates/import', { candidates: [{ firstName: 'Grace', lastName: 'Hopper', email: email('grace') }], jobListingId: listing });
    const candidateId = String((imported.results as Json[])[0].candidateId);
    const items = (await ok('GET', `/public/v1/candidates/${candidateId}/activity`)).data as Json[];
    expect(items.map((item) => item.type).sort()).toEqual(['application.created', 'candidate.created']);
    expect(items.find((item) => item.type === 'candidate.created')).toMatchObject({ candidate: { source: 'IMPORTED' } });
    expect(items.find((item) => item.type === 'application.created')).toMatchObject({ application: { source: 'IMPORTED' } });
  });

  it('pages by cursor to exactly the full list, entries of the same millisecond included, at every page size', async () => {
    const { applicationId, candidateId } = await apply();
    for (let i = 0; i < 4; i++) {
      await ok('PATCH', `/public/v1/applications/${applicationId}/status`, { status: i % 2 ? 'ACTIVE' : 'IN_REVIEW' });
      await ok('POST', `/public/v1/candidates/${candidateId}/notes`, { body: `note ${i}`, ...(i % 2 ? { applicationId } : {}) });
    }
    // Seven file events at one instant (and whatever else shares a millisecond): ties broken by source, then id.
    const instant = t.clock.now();
    for (let i = 0; i < 7; i++) {
      await recordTestEvent(t.database.db, { companyId: tenant.companyId, type: 'candidate.file_added', data: { file: { id: randomUUID(), candidateId, applicationId } }, occurredAt: instant });
    }
    const url = `/public/v1/candidates/${candidateId}/activity`;
    const full = (await ok('GET', `${url}?size=100`)).data as Json[];
    expect(full.length).toBe(1 + 1 + 4 + 4 + 7);
    for (const size of [1, 2, 3, 5]) expect(await readAll(url, size)).toEqual(full);
    // Offset pages agree too.
    const second = await ok('GET', `${url}?page=1&size=4`);
    expect(second.data).toEqual(full.slice(4, 8));
    expect(second.pagination).toMatchObject({ page: 1, size: 4, totalElements: full.length, totalPages: Math.ceil(full.length / 4) });
    // New entries meanwhile do not shift a cursor's next page.
    const first = await ok('GET', `${url}?size=3`);
    await ok('POST', `/public/v1/candidates/${candidateId}/notes`, { body: 'newer than the cursor' });
    const next = await ok('GET', `${url}?size=3&cursor=${encodeURIComponent(String((first.pagination as Json).nextCursor))}`);
    expect(next.data).toEqual(full.slice(3, 6));
    // The application's own timeline pages the same way.
    const appUrl = `/public/v1/applications/${applicationId}/activity`;
    const appFull = (await ok('GET', `${appUrl}?size=100`)).data as Json[];
    expect(await readAll(appUrl, 2)).toEqual(appFull);
    // A cursor of the candidate's list is refused on the application's (422).
    const refused = await t.app.inject({ method: 'GET', url: `${appUrl}?cursor=${encodeURIComponent(String((first.pagination as Json).nextCursor))}`, headers: tenant.headers });
    expectErrorEnvelope(refused, 422, 'VALIDATION_ERROR', appUrl);
  });

  it('keeps moves and notes for good; recorded file events go with the outbox retention', async () => {
    const { applicationId, candidateId } = await apply();
    await ok('POST', `/public/v1/candidates/${candidateId}/notes`, { body: 'Kept.' });
    const old = new Date(t.clock.now().getTime() - 40 * 24 * 60 * 60 * 1000);
    const event = await recordTestEvent(t.database.db, { companyId: tenant.companyId, type: 'candidate.file_added', data: { file: { id: randomUUID(), candidateId, applicationId } }, occurredAt: old });
    const url = `/public/v1/candidates/${candidateId}/activity`;
    expect(((await ok('GET', url)).data as Json[]).map((item) => item.type)).toContain('candidate.file_added');
    await markEventsDispatched(t.database.db, [event.id], t.clock.now());
    await pruneDispatchedEvents(t.database.db, new Date(t.clock.now().getTime() - 30 * 24 * 60 * 60 * 1000), 1000);
    expect(((await ok('GET', url)).data as Json[]).map((item) => item.type).sort()).toEqual(['application.created', 'candidate.created', 'note.created']);
  });

  it("after erasure: the candidate's timeline is 404, the application's shows the erasure and no notes", async () => {
    const { applicationId, candidateId } = await apply();
    await ok('POST', `/public/v1/candidates/${candidateId}/notes`, { body: 'About Ada Lovelace.', applicationId });
    await ok('DELETE', `/public/v1/candidates/${candidateId}`);
    const url = `/public/v1/candidates/${candidateId}/activity`;
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url, headers: tenant.headers }), 404, 'NOT_FOUND', url);
    const items = (await ok('GET', `/public/v1/applications/${applicationId}/activity`)).data as Json[];
    expect(items.map((item) => item.type)).toEqual(['candidate.erased', 'application.created']);
    expect(items[0]).toMatchObject({ erasure: { candidateId, applicationIds: [applicationId] } });
  });
});

describe('access', () => {
  it("another company's candidate or application is 404; reading needs candidates:read", async () => {
    const { applicationId, candidateId } = await apply();
    const other = await t.tenant();
    for (const url of [`/public/v1/candidates/${candidateId}/activity`, `/public/v1/applications/${applicationId}/activity`, `/public/v1/candidates/${randomUUID()}/activity`]) {
      expectErrorEnvelope(await t.app.inject({ method: 'GET', url, headers: other.headers }), 404, 'NOT_FOUND', url);
    }
    const applicationsOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['applications:read']) };
    for (const url of [`/public/v1/candidates/${candidateId}/activity`, `/public/v1/applications/${applicationId}/activity`]) {
      expectErrorEnvelope(await t.app.inject({ method: 'GET', url, headers: applicationsOnly }), 403, 'FORBIDDEN', url);
    }
    const readOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['candidates:read']) };
    expect((await t.app.inject({ method: 'GET', url: `/public/v1/applications/${applicationId}/activity`, headers: readOnly })).statusCode).toBe(200);
  });
});
