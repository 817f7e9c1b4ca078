// Notes on candidates through HTTP, with API keys and real users' tokens (the development sign-in):
// writing, listing by cursor, editing (the author only), deleting (the author, an ADMIN, or an API
// key), the 10,000-character limit, tenancy (another company's ids answer 404), scopes and roles
// (403), the outbox events, and erasure (the notes go, and their texts leave the stored events).
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { countEvents, eventsOf } from '../helpers/factories.ts';
import type { Tenant } from '../helpers/test-app.ts';
import { userByEmail } from '../helpers/users.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';

type Json = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let t: ListeningApp;
let companyId: string;
let admin: Record<string, string>;
let adminUserId: string;
let adminName: string | null;
let member: Record<string, string>;
let key: Record<string, string>;
let keyId: string;
let otherKey: Record<string, string>;
let readOnlyKey: Record<string, string>;
let other: Tenant;
let candidateId: string;
let applicationId: string;
let secondCandidateId: string;
let secondApplicationId: string;

const email = (name: string) => `${name}-${randomUUID().slice(0, 8)}@example.com`;
const call = (method: Method, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function ok(method: Method, url: string, headers: Record<string, string>, payload?: unknown): Promise<Json> {
  const response = await call(method, url, headers, payload);
  expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
  return response.body ? (response.json() as Json) : {};
}

const notesUrl = (candidate = candidateId) => `/public/v1/candidates/${candidate}/notes`;
const noteUrl = (noteId: string, candidate = candidateId) => `${notesUrl(candidate)}/${noteId}`;
const write = (headers: Record<string, string>, body: string, extra: Json = {}) => ok('POST', notesUrl(), headers, { body, ...extra });

beforeAll(async () => {
  t = await startListeningApp();
  const adminEmail = email('admin');
  admin = await dashboardBearer(t, adminEmail);
  const adminUser = (await userByEmail(t.ctx, adminEmail))!;
  adminUserId = adminUser.id;
  adminName = adminUser.name;
  companyId = (await getMembership(t.ctx, adminUser.id))!.companyId;
  const memberEmail = email('member');
  await ok('POST', '/settings/members/invitations', admin, { email: memberEmail, role: 'MEMBER' });
  member = await dashboardBearer(t, memberEmail);

  const created = await ok('POST', '/settings/api-keys', admin, { label: 'ATS sync', scopes: ALL_SCOPES });
  key = { 'x-api-key': String(created.rawKey) };
  keyId = String(created.id);
  otherKey = { 'x-api-key': await t.keyFor(companyId, ['candidates:read', 'candidates:write']) };
  readOnlyKey = { 'x-api-key': await t.keyFor(companyId, ['candidates:read', 'applications:read']) };
  other = await t.tenant();

  const listing = String((await ok('POST', '/public/v1/job-listings', key, { position: 'Recruiter', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' })).id);
  await ok('POST', `/public/v1/job-listings/${listing}/publish`, key);
  const apply = async () => {
    const application = await ok('POST', '/public/v1/applications', key, {
      jobListingId: listing,
      candidate: { firstName: 'Ada', lastName: 'Lovelace', email: email('ada') },
    });
    return { applicationId: String(application.id), candidateId: String((application.candidate as Json).id) };
  };
  ({ applicationId, candidateId } = await apply());
  ({ applicationId: secondApplicationId, candidateId: secondCandidateId } = await apply());
});
afterAll(async () => t.close());

describe('notes through an API key', () => {
  it('writes, lists, edits and deletes a note; the key is its author, shown with its label', async () => {
    const note = await write(key, 'Strong on API design.');
    expect(note).toMatchObject({
      candidateId,
      applicationId: null,
      body: 'Strong on API design.',
      author: { type: 'API_KEY', id: keyId, label: 'ATS sync' },
      editedAt: null,
    });
    expect(new Date(String(note.createdAt)).toISOString()).toBe(note.createdAt);

    const listed = await ok('GET', notesUrl(), key);
    expect((listed.data as Json[]).map((n) => n.id)).toContain(note.id);

    const edited = await ok('PATCH', noteUrl(String(note.id)), key, { body: 'Strong on API design; wants to start in May.' });
    expect(edited).toMatchObject({ id: note.id, body: 'Strong on API design; wants to start in May.', createdAt: note.createdAt });
    expect(edited.editedAt).toEqual(expect.any(String));

    expect((await call('DELETE', noteUrl(String(note.id)), key)).statusCode).toBe(204);
    expect(((await ok('GET', notesUrl(), key)).data as Json[]).map((n) => n.id)).not.toContain(note.id);
    expectErrorEnvelope(await call('PATCH', noteUrl(String(note.id)), key, { body: 'again' }), 404, 'NOT_FOUND', noteUrl(String(note.id)));
    expectErrorEnvelope(await call('DELETE', noteUrl(String(note.id)), key), 404, 'NOT_FOUND', noteUrl(String(note.id)));
  });

  it("ties a note to one of the candidate's applications, listed there too; any other application is 422", async () => {
    const note = await write(key, 'About this application.', { applicationId });
    const onCandidate = await write(key, 'About the person.');
    expect(note.applicationId).toBe(applicationId);
    const listed = (await ok('GET', `/public/v1/applications/${applicationId}/notes`, key)).data as Json[];
    expect(listed.map((n) => n.id)).toContain(note.id);
    expect(listed.map((n) => n.id)).not.toContain(onCandidate.id);
    expect(listed.every((n) => n.applicationId === applicationId)).toBe(true);

    for (const wrong of [secondApplicationId, randomUUID()]) {
      const body = expectErrorEnvelope(await call('POST', notesUrl(), key, { body: 'x', applicationId: wrong }), 422, 'VALIDATION_ERROR', notesUrl());
      expect(body.details).toEqual([{ field: 'applicationId', message: expect.any(String) }]);
    }
  });

  it('pages by cursor, newest first, without repeats', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(String((await ok('POST', notesUrl(secondCandidateId), key, { body: `note ${i}` })).id));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `${notesUrl(secondCandidateId)}?size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await ok('GET', url, key);
      seen.push(...(page.data as Json[]).map((n) => String(n.id)));
      expect((page.pagination as Json).totalElements).toBe(5);
      cursor = (page.pagination as Json).nextCursor as string | null;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('takes 10,000 characters (counted as characters, not bytes) and refuses 10,001, an empty body and NUL with 422', async () => {
    expect((await write(key, 'a'.repeat(10_000))).body).toHaveLength(10_000);
    expect([...String((await write(key, '😀'.repeat(10_000))).body)]).toHaveLength(10_000);
    const before = await countEvents(t, companyId, 'note.created');
    for (const body of ['a'.repeat(10_001), '', 'nul \u0000 here']) {
      const refused = expectErrorEnvelope(await call('POST', notesUrl(), key, { body }), 422, 'VALIDATION_ERROR', notesUrl());
      expect((refused.details as Json[])[0]).toMatchObject({ field: 'body' });
    }
    const note = await write(key, 'short');
    expectErrorEnvelope(await call('PATCH', noteUrl(String(note.id)), key, { body: 'b'.repeat(10_001) }), 422, 'VALIDATION_ERROR', noteUrl(String(note.id)));
    expect(await countEvents(t, companyId, 'note.created')).toBe(before + 1);
    expectErrorEnvelope(await call('POST', notesUrl(), key, { body: 'x', author: 'me' }), 422, 'VALIDATION_ERROR', notesUrl());
  });

  it('records note.created, note.updated and note.deleted in the outbox; the same text again emits nothing', async () => {
    const note = await write(key, 'Event me.', { applicationId });
    const id = String(note.id);
    expect((await eventsOf(t, companyId, 'note.created')).find((data) => (data.note as Json).id === id)).toEqual({ note });
    const edited = await ok('PATCH', noteUrl(id), key, { body: 'Event me, edited.' });
    const updates = await countEvents(t, companyId, 'note.updated');
    expect((await eventsOf(t, companyId, 'note.updated')).find((data) => (data.note as Json).id === id)).toEqual({ note: edited });
    expect(await ok('PATCH', noteUrl(id), key, { body: 'Event me, edited.' })).toEqual(edited);
    expect(await countEvents(t, companyId, 'note.updated')).toBe(updates);
    await ok('DELETE', noteUrl(id), key);
    expect((await eventsOf(t, companyId, 'note.deleted')).find((data) => data.noteId === id)).toEqual({
      noteId: id,
      candidateId,
      applicationId,
      deletedBy: { type: 'API_KEY', id: keyId, label: 'ATS sync' },
    });
    // Webhooks and the event feed carry them under the candidates' read scope.
    expect((await call('POST', '/public/v1/webhooks', key, { url: 'http://127.0.0.1:9/hook', events: ['note.created', 'note.deleted'] })).statusCode).toBe(201);
    // The feed shows an event once no older transaction is still running (0013_event_feed.sql): ask again briefly.
    let inFeed = false;
    for (let tries = 0; tries < 50 && !inFeed; tries++) {
      const feed = await ok('GET', '/public/v1/events?type=note.created&size=100', readOnlyKey);
      inFeed = (feed.data as Json[]).some((event) => ((event.data as Json).note as Json).id === id);
      if (!inFeed) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(inFeed).toBe(true);
    const jobsOnly = { 'x-api-key': await t.keyFor(companyId, ['jobs:read']) };
    expect((await call('GET', '/public/v1/events?type=note.created', jobsOnly)).statusCode).toBe(403);
  });
});

describe('who may change a note', () => {
  it('only its author edits: another key and an ADMIN get 403, and nothing changes', async () => {
    const note = await write(key, 'Mine.');
    const url = noteUrl(String(note.id));
    for (const headers of [otherKey, admin]) {
      const body = expectErrorEnvelope(await call('PATCH', url, headers, { body: 'Yours now.' }), 403, 'FORBIDDEN', url);
      expect(body.details).toEqual([{ field: 'author', message: expect.any(String) }]);
    }
    const byAdmin = await write(admin, 'The admin wrote this.');
    expect(byAdmin.author).toEqual({ type: 'USER', id: adminUserId, label: adminName });
    expectErrorEnvelope(await call('PATCH', noteUrl(String(byAdmin.id)), key, { body: 'no' }), 403, 'FORBIDDEN', noteUrl(String(byAdmin.id)));
    expect((await ok('PATCH', noteUrl(String(byAdmin.id)), admin, { body: 'The admin edited this.' })).body).toBe('The admin edited this.');
    const listed = ((await ok('GET', notesUrl(), key)).data as Json[]).find((n) => n.id === note.id);
    expect(listed).toMatchObject({ body: 'Mine.', editedAt: null });
  });

  it('deletes: the author, an ADMIN, or another API key with candidates:write', async () => {
    const byKey = await write(key, 'one');
    expect((await call('DELETE', noteUrl(String(byKey.id)), admin)).statusCode).toBe(204);
    const byKey2 = await write(key, 'two');
    expect((await call('DELETE', noteUrl(String(byKey2.id)), otherKey)).statusCode).toBe(204);
    const byAdmin = await write(admin, 'three');
    expect((await call('DELETE', noteUrl(String(byAdmin.id)), key)).statusCode).toBe(204);
    const deleted = (await eventsOf(t, companyId, 'note.deleted')).find((data) => data.noteId === byKey.id);
    expect(deleted?.deletedBy).toEqual({ type: 'USER', id: adminUserId, label: adminName });
  });

  it('a MEMBER (a recruiter) reads notes and writes its own, but edits and deletes no one else\'s', async () => {
    const note = await write(key, 'Readable by members.');
    expect(((await ok('GET', notesUrl(), member)).data as Json[]).map((n) => n.id)).toContain(note.id);
    await ok('GET', `/public/v1/applications/${applicationId}/notes`, member);
    for (const [method, url, payload] of [
      ['PATCH', noteUrl(String(note.id)), { body: 'x' }],
      ['DELETE', noteUrl(String(note.id)), undefined],
    ] as Array<[Method, string, unknown]>) {
      expectErrorEnvelope(await call(method, url, member, payload), 403, 'FORBIDDEN', url);
    }
    const own = await ok('POST', notesUrl(), member, { body: 'My own note.' });
    await ok('PATCH', noteUrl(String(own.id)), member, { body: 'My own note, edited.' });
    expect((await call('DELETE', noteUrl(String(own.id)), member)).statusCode).toBe(204);
  });

  it('an API key writing notes needs candidates:write: applications:write, which a MEMBER writes with, is not enough for a key', async () => {
    const applicationsOnly = { 'x-api-key': await t.keyFor(companyId, ['candidates:read', 'applications:write']) };
    expectErrorEnvelope(await call('POST', notesUrl(), applicationsOnly, { body: 'x' }), 403, 'FORBIDDEN', notesUrl());
  });

  it('scopes: writing needs candidates:write, reading candidates:read (403 in the envelope)', async () => {
    const note = await write(key, 'Scoped.');
    for (const [method, url, payload] of [
      ['POST', notesUrl(), { body: 'x' }],
      ['PATCH', noteUrl(String(note.id)), { body: 'x' }],
      ['DELETE', noteUrl(String(note.id)), undefined],
    ] as Array<[Method, string, unknown]>) {
      expectErrorEnvelope(await call(method, url, readOnlyKey, payload), 403, 'FORBIDDEN', url);
    }
    const applicationsOnly = { 'x-api-key': await t.keyFor(companyId, ['applications:read', 'applications:write']) };
    for (const url of [notesUrl(), `/public/v1/applications/${applicationId}/notes`]) {
      expectErrorEnvelope(await call('GET', url, applicationsOnly), 403, 'FORBIDDEN', url);
    }
    expect((await call('GET', notesUrl(), { 'x-api-key': 'rk_live_nope' })).statusCode).toBe(401);
  });

  it("another company's candidate, application and note answer 404, and nothing changes", async () => {
    const note = await write(key, 'Not for them.');
    for (const [method, url, payload] of [
      ['GET', notesUrl(), undefined],
      ['POST', notesUrl(), { body: 'x' }],
      ['PATCH', noteUrl(String(note.id)), { body: 'x' }],
      ['DELETE', noteUrl(String(note.id)), undefined],
      ['GET', `/public/v1/applications/${applicationId}/notes`, undefined],
    ] as Array<[Method, string, unknown]>) {
      expectErrorEnvelope(await call(method, url, other.headers, payload), 404, 'NOT_FOUND', url);
    }
    // A note addressed through another candidate of the same company is not found either.
    expectErrorEnvelope(await call('PATCH', noteUrl(String(note.id), secondCandidateId), key, { body: 'x' }), 404, 'NOT_FOUND', noteUrl(String(note.id), secondCandidateId));
    expect(((await ok('GET', notesUrl(), key)).data as Json[]).find((n) => n.id === note.id)).toMatchObject({ body: 'Not for them.' });
  });
});

describe('the activity timeline through users\' tokens', () => {
  it('says which person moved an application and wrote a note (actor USER), and a MEMBER reads it', async () => {
    await ok('PATCH', `/public/v1/applications/${secondApplicationId}/status`, admin, { status: 'INTERVIEW', reason: 'Good portfolio' });
    await ok('POST', notesUrl(secondCandidateId), admin, { body: 'Interview on Monday.', applicationId: secondApplicationId });
    const items = (await ok('GET', `/public/v1/applications/${secondApplicationId}/activity`, member)).data as Json[];
    const byAdmin = { type: 'USER', id: adminUserId, label: adminName };
    expect(items.find((item) => item.type === 'application.status_changed')).toMatchObject({
      actor: byAdmin,
      stageMove: { toStatus: 'INTERVIEW', reason: 'Good portfolio' },
    });
    expect(items.find((item) => item.type === 'note.created')).toMatchObject({ actor: byAdmin, note: { body: 'Interview on Monday.' } });
    expect(items.find((item) => item.type === 'application.created')).toMatchObject({ actor: { type: 'API_KEY', id: keyId, label: 'ATS sync' } });
    // A MEMBER's own move is theirs too.
    const moved = await ok('PATCH', `/public/v1/applications/${secondApplicationId}/status`, member, { status: 'OFFER' });
    expect(moved.status).toBe('OFFER');
    const latest = ((await ok('GET', `/public/v1/candidates/${secondCandidateId}/activity?size=1`, key)).data as Json[])[0];
    expect(latest).toMatchObject({ type: 'application.status_changed', actor: { type: 'USER' }, stageMove: { fromStatus: 'INTERVIEW', toStatus: 'OFFER' } });
    expect((latest.actor as Json).id).not.toBe(adminUserId);
  });
});

describe('erasure', () => {
  it("deletes the candidate's notes in the same transaction and blanks their texts in the stored events", async () => {
    const listing = String((await ok('POST', '/public/v1/job-listings', key, { position: 'Erasable', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' })).id);
    await ok('POST', `/public/v1/job-listings/${listing}/publish`, key);
    const application = await ok('POST', '/public/v1/applications', key, {
      jobListingId: listing,
      candidate: { firstName: 'Quintessa', lastName: 'Vorhees', email: email('quintessa') },
    });
    const erasable = String((application.candidate as Json).id);
    const secret = 'Mentioned a medical appointment on Friday';
    const note = await ok('POST', notesUrl(erasable), key, { body: secret, applicationId: application.id });
    await ok('PATCH', noteUrl(String(note.id), erasable), key, { body: `${secret}, and more` });
    const gone = await ok('POST', notesUrl(erasable), key, { body: 'to be deleted first' });
    await ok('DELETE', noteUrl(String(gone.id), erasable), key);

    const exported = await ok('GET', `/public/v1/candidates/${erasable}/export`, key);
    expect((exported.notes as Json[]).map((n) => n.body)).toEqual([`${secret}, and more`]);

    expect((await call('DELETE', `/public/v1/candidates/${erasable}`, key)).statusCode).toBe(204);
    const { queryRows } = await import('../../src/db/client.ts');
    const { sql } = await import('drizzle-orm');
    const [{ n }] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from notes where candidate_id = ${erasable}`);
    expect(n).toBe(0);
    const [{ found }] = await queryRows<{ found: number }>(t.database.db, sql`select count(*)::int as found from events where data::text like ${`%${secret}%`}`);
    expect(found).toBe(0);
    const stored = (await eventsOf(t, companyId, 'note.created')).find((data) => (data.note as Json).id === note.id);
    expect((stored!.note as Json).body).toBe('[erased]');
    expectErrorEnvelope(await call('GET', notesUrl(erasable), key), 404, 'NOT_FOUND', notesUrl(erasable));
    expectErrorEnvelope(await call('POST', notesUrl(erasable), key, { body: 'late' }), 404, 'NOT_FOUND', notesUrl(erasable));
    // The application stays (anonymized); its notes are gone.
    expect((await ok('GET', `/public/v1/applications/${String(application.id)}/notes`, key)).data).toEqual([]);
  });
});

describe('a note written while the candidate is being erased', () => {
  // Another connection holds the candidate row as an erasure does (FOR UPDATE) and erases it: the
  // note's write waits for it, then finds the candidate gone (404), rather than slipping a note in
  // after the erasure deleted the others. PostgreSQL only: PGlite has one connection.
  it.skipIf(!process.env.DATABASE_URL)('waits for the erasure and answers 404; no note survives it', async () => {
    const { candidateId: erasing } = await (async () => {
      const listing = String((await ok('POST', '/public/v1/job-listings', key, { position: 'Race', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' })).id);
      await ok('POST', `/public/v1/job-listings/${listing}/publish`, key);
      const application = await ok('POST', '/public/v1/applications', key, { jobListingId: listing, candidate: { firstName: 'Rae', lastName: 'Cing', email: email('race') } });
      return { candidateId: String((application.candidate as Json).id) };
    })();
    const eraser = new pg.Client({ connectionString: t.databaseUrl });
    await eraser.connect();
    try {
      await eraser.query('begin');
      await eraser.query('select id from candidates where id = $1 for update', [erasing]);
      const writing = call('POST', notesUrl(erasing), key, { body: 'Written during the erasure.' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await eraser.query('update candidates set erased_at = now() where id = $1', [erasing]);
      await eraser.query('commit');
      expectErrorEnvelope(await writing, 404, 'NOT_FOUND', notesUrl(erasing));
      const { rows } = await eraser.query('select count(*)::int as n from notes where candidate_id = $1', [erasing]);
      expect(rows[0].n).toBe(0);
    } finally {
      await eraser.end();
    }
  });
});
