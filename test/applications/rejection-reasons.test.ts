// Rejection reasons (issue 28) over HTTP on a real database: the company's list (seeded for a new
// company, created, renamed, archived, deleted or archived when in use), the company setting that
// a move to REJECTED needs one, the move that gives one (application, history, event), every
// refusal (422, nothing written), the analytics overview's counts by reason, scopes and tenancy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCompanySettings } from '../../src/modules/companies/service.ts';
import { DEFAULT_REJECTION_REASONS } from '../../src/modules/companies/rejection-reasons.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { applicant, countEvents, countRows, eventsOf, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Json = Record<string, unknown>;
interface Reason {
  id: string;
  name: string;
  kind: 'REJECTION' | 'WITHDRAWAL';
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

const REASONS = '/public/v1/rejection-reasons';
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

const call = (who: Tenant | Record<string, string>, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: 'headers' in who ? (who as Tenant).headers : (who as Record<string, string>), ...(payload === undefined ? {} : { payload: payload as object }) });

async function allReasons(tenant: Tenant, query = ''): Promise<Reason[]> {
  const res = await call(tenant, 'GET', `${REASONS}?size=100${query}`);
  expect(res.statusCode).toBe(200);
  return res.json().data as Reason[];
}

async function reasonNamed(tenant: Tenant, kind: Reason['kind'], name: string): Promise<Reason> {
  const found = (await allReasons(tenant)).find((reason) => reason.kind === kind && reason.name === name);
  expect(found, `${kind} ${name}`).toBeDefined();
  return found!;
}

async function submitted(tenant: Tenant, listingId: string, email: string): Promise<string> {
  const res = await call(tenant, 'POST', '/public/v1/applications', { jobListingId: listingId, candidate: applicant(email) });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
}

const move = (tenant: Tenant, id: string, payload: Json) => call(tenant, 'PATCH', `/public/v1/applications/${id}/status`, payload);

async function history(tenant: Tenant, id: string): Promise<Json[]> {
  const res = await call(tenant, 'GET', `/public/v1/applications/${id}/history`);
  expect(res.statusCode).toBe(200);
  return res.json().data as Json[];
}

describe('the company\'s list of rejection reasons', () => {
  it('a new company starts with the default set, oldest first, paginated in the contract\'s envelope', async () => {
    const tenant = await t.tenant();
    const reasons = await allReasons(tenant);
    expect(reasons.map(({ kind, name }) => ({ kind, name }))).toEqual(DEFAULT_REJECTION_REASONS);
    expect(reasons.every((reason) => reason.active)).toBe(true);
    expect(reasons.map((reason) => reason.name)).toEqual(expect.arrayContaining(['Not enough experience', 'Salary expectations', 'Position filled', 'Withdrew', 'No response']));

    const page = await call(tenant, 'GET', `${REASONS}?page=1&size=5`);
    expect(page.json().pagination).toMatchObject({ page: 1, size: 5, totalElements: DEFAULT_REJECTION_REASONS.length, totalPages: 3 });
    expect(page.json().data.map((reason: Reason) => reason.id)).toEqual(reasons.slice(5, 10).map((reason) => reason.id));
    // A cursor walks the same order.
    const first = (await call(tenant, 'GET', `${REASONS}?size=5`)).json();
    const next = (await call(tenant, 'GET', `${REASONS}?size=5&cursor=${encodeURIComponent(first.pagination.nextCursor)}`)).json();
    expect(next.data.map((reason: Reason) => reason.id)).toEqual(reasons.slice(5, 10).map((reason) => reason.id));

    const withdrawals = await allReasons(tenant, '&kind=WITHDRAWAL');
    expect(withdrawals.map((reason) => reason.name)).toEqual(DEFAULT_REJECTION_REASONS.filter((r) => r.kind === 'WITHDRAWAL').map((r) => r.name));
    expect(await allReasons(tenant, '&active=false')).toEqual([]);
    expectErrorEnvelope(await call(tenant, 'GET', `${REASONS}?kind=LATER`), 422, 'VALIDATION_ERROR', REASONS);
  });

  it('creates, reads, renames, archives, restores and deletes; a taken name is 409 within a kind', async () => {
    const tenant = await t.tenant();
    // Later than the defaults the company got (the test clock stands still otherwise, and a tie is
    // ordered by id).
    t.clock.advance(1000);
    const created = await call(tenant, 'POST', REASONS, { name: '  Failed the take-home  ', kind: 'REJECTION' });
    expect(created.statusCode).toBe(201);
    const reason = created.json() as Reason;
    expect(reason).toMatchObject({ name: 'Failed the take-home', kind: 'REJECTION', active: true });
    expect(reason.createdAt).toBe(reason.updatedAt);
    expect((await call(tenant, 'GET', `${REASONS}/${reason.id}`)).json()).toEqual(reason);
    // Newest last: the company's own come after the defaults.
    expect((await allReasons(tenant)).at(-1)!.id).toBe(reason.id);

    const taken = expectErrorEnvelope(await call(tenant, 'POST', REASONS, { name: 'failed THE take-home', kind: 'REJECTION' }), 409, 'CONFLICT', REASONS);
    expect(taken.details).toEqual([expect.objectContaining({ field: 'name' })]);
    expect((await call(tenant, 'POST', REASONS, { name: 'Failed the take-home', kind: 'WITHDRAWAL' })).statusCode).toBe(201);
    expectErrorEnvelope(await call(tenant, 'PATCH', `${REASONS}/${reason.id}`, { name: 'skills MISMATCH' }), 409, 'CONFLICT', `${REASONS}/${reason.id}`);

    t.clock.advance(1000);
    const renamed = await call(tenant, 'PATCH', `${REASONS}/${reason.id}`, { name: 'Take-home not passed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ id: reason.id, name: 'Take-home not passed', kind: 'REJECTION', active: true });
    expect(renamed.json().updatedAt > reason.updatedAt).toBe(true);

    expect((await call(tenant, 'PATCH', `${REASONS}/${reason.id}`, { active: false })).json()).toMatchObject({ active: false });
    expect((await allReasons(tenant, '&active=false')).map((r) => r.id)).toEqual([reason.id]);
    expect((await call(tenant, 'PATCH', `${REASONS}/${reason.id}`, { active: true })).json()).toMatchObject({ active: true });

    // Never used: deleted for good.
    expect((await call(tenant, 'DELETE', `${REASONS}/${reason.id}`)).statusCode).toBe(204);
    expectErrorEnvelope(await call(tenant, 'GET', `${REASONS}/${reason.id}`), 404, 'NOT_FOUND', `${REASONS}/${reason.id}`);
    expectErrorEnvelope(await call(tenant, 'DELETE', `${REASONS}/${reason.id}`), 404, 'NOT_FOUND', `${REASONS}/${reason.id}`);
    // The name is free again.
    expect((await call(tenant, 'POST', REASONS, { name: 'Failed the take-home', kind: 'REJECTION' })).statusCode).toBe(201);
  });

  it('refuses bad input in the envelope and stores nothing', async () => {
    const tenant = await t.tenant();
    const before = await allReasons(tenant);
    const some = before[0];
    for (const body of [
      { name: '', kind: 'REJECTION' },
      { name: '   ', kind: 'REJECTION' },
      { name: 'x'.repeat(101), kind: 'REJECTION' },
      { name: 'Tab\tinside', kind: 'REJECTION' },
      { name: 'Later', kind: 'LATER' },
      { name: 'Later' },
      { name: 'Later', kind: 'REJECTION', active: false },
      { name: 42, kind: 'REJECTION' },
    ]) {
      expectErrorEnvelope(await call(tenant, 'POST', REASONS, body), 422, 'VALIDATION_ERROR', REASONS);
    }
    for (const body of [{}, { kind: 'WITHDRAWAL' }, { name: '' }, { active: 'no' }, { name: 'x'.repeat(101) }]) {
      expectErrorEnvelope(await call(tenant, 'PATCH', `${REASONS}/${some.id}`, body), 422, 'VALIDATION_ERROR', `${REASONS}/${some.id}`);
    }
    const malformed = await t.app.inject({ method: 'POST', url: REASONS, headers: { ...tenant.headers, 'content-type': 'application/json' }, payload: '{"name":' });
    expectErrorEnvelope(malformed, 400, 'BAD_REQUEST', REASONS);
    expectErrorEnvelope(await call(tenant, 'GET', `${REASONS}/not-a-uuid`), 422, 'VALIDATION_ERROR', `${REASONS}/not-a-uuid`);
    expectErrorEnvelope(await call(tenant, 'PATCH', `${REASONS}/${UNKNOWN_ID}`, { name: 'Other name' }), 404, 'NOT_FOUND', `${REASONS}/${UNKNOWN_ID}`);
    expect(await allReasons(tenant)).toEqual(before);
  });

  it('reading needs applications:read, changing needs jobs:write (an ADMIN\'s)', async () => {
    const tenant = await t.tenant();
    const reader = { 'x-api-key': await t.keyFor(tenant.companyId, ['applications:read', 'applications:write']) };
    const none = { 'x-api-key': await t.keyFor(tenant.companyId, ['jobs:read']) };
    const writer = { 'x-api-key': await t.keyFor(tenant.companyId, ['jobs:write']) };
    const [some] = await allReasons(tenant);
    expect((await call(reader, 'GET', REASONS)).statusCode).toBe(200);
    expect((await call(reader, 'GET', `${REASONS}/${some.id}`)).statusCode).toBe(200);
    expectErrorEnvelope(await call(none, 'GET', REASONS), 403, 'FORBIDDEN', REASONS);
    expectErrorEnvelope(await call(reader, 'POST', REASONS, { name: 'Mine', kind: 'REJECTION' }), 403, 'FORBIDDEN', REASONS);
    expectErrorEnvelope(await call(reader, 'PATCH', `${REASONS}/${some.id}`, { name: 'Mine' }), 403, 'FORBIDDEN', `${REASONS}/${some.id}`);
    expectErrorEnvelope(await call(reader, 'DELETE', `${REASONS}/${some.id}`), 403, 'FORBIDDEN', `${REASONS}/${some.id}`);
    expect((await call(writer, 'POST', REASONS, { name: 'Mine', kind: 'REJECTION' })).statusCode).toBe(201);
    expectErrorEnvelope(await call({}, 'GET', REASONS), 401, 'UNAUTHORIZED', REASONS);
  });

  it('another company\'s reason is not found, and cannot be given to a move', async () => {
    const mine = await t.tenant();
    const theirs = await t.tenant();
    const their = (await allReasons(theirs))[0];
    for (const method of ['GET', 'DELETE'] as const) {
      expectErrorEnvelope(await call(mine, method, `${REASONS}/${their.id}`), 404, 'NOT_FOUND', `${REASONS}/${their.id}`);
    }
    expectErrorEnvelope(await call(mine, 'PATCH', `${REASONS}/${their.id}`, { name: 'Taken over' }), 404, 'NOT_FOUND', `${REASONS}/${their.id}`);
    expect((await call(theirs, 'GET', `${REASONS}/${their.id}`)).json()).toEqual(their);
    const listing = await makeListing(t, mine.companyId);
    const id = await submitted(mine, listing, 'tenancy@example.com');
    const refused = expectErrorEnvelope(await move(mine, id, { status: 'REJECTED', reasonId: their.id }), 422, 'VALIDATION_ERROR', `/public/v1/applications/${id}/status`);
    expect(refused.details).toEqual([expect.objectContaining({ field: 'reasonId' })]);
    expect((await call(mine, 'GET', `/public/v1/applications/${id}`)).json().status).toBe('ACTIVE');
  });
});

describe('a move to REJECTED or WITHDRAWN with a reason', () => {
  it('keeps the reason on the application, in the history and in application.status_changed', async () => {
    const tenant = await t.tenant();
    const listing = await makeListing(t, tenant.companyId);
    const id = await submitted(tenant, listing, 'rejected@example.com');
    const experience = await reasonNamed(tenant, 'REJECTION', 'Not enough experience');

    const res = await move(tenant, id, { status: 'REJECTED', reasonId: experience.id, reason: 'Two years short for this level' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'REJECTED', rejectionReasonId: experience.id });
    expect((await call(tenant, 'GET', `/public/v1/applications/${id}`)).json().rejectionReasonId).toBe(experience.id);

    const [event] = await eventsOf(t, tenant.companyId, 'application.status_changed');
    expect(event).toMatchObject({
      previousStatus: 'ACTIVE',
      newStatus: 'REJECTED',
      reason: 'Two years short for this level',
      rejectionReason: { id: experience.id, name: 'Not enough experience', kind: 'REJECTION' },
      application: { id, status: 'REJECTED', rejectionReasonId: experience.id },
    });
    const [latest, submission] = await history(tenant, id);
    expect(latest).toMatchObject({
      fromStatus: 'ACTIVE',
      toStatus: 'REJECTED',
      reason: 'Two years short for this level',
      rejectionReason: { id: experience.id, name: 'Not enough experience', kind: 'REJECTION' },
    });
    expect(submission).toMatchObject({ fromStatus: null, rejectionReason: null });

    // Back into the pipeline: the application's reason goes, the history keeps it.
    const back = await move(tenant, id, { status: 'IN_REVIEW' });
    expect(back.json()).toMatchObject({ status: 'IN_REVIEW', rejectionReasonId: null });
    const events = await eventsOf(t, tenant.companyId, 'application.status_changed');
    expect(events.at(-1)).toMatchObject({ newStatus: 'IN_REVIEW', rejectionReason: null });
    const entries = await history(tenant, id);
    expect(entries[0]).toMatchObject({ toStatus: 'IN_REVIEW', rejectionReason: null });
    expect(entries[1]).toMatchObject({ toStatus: 'REJECTED', rejectionReason: { id: experience.id } });

    // A withdrawal takes a WITHDRAWAL reason.
    const offer = await reasonNamed(tenant, 'WITHDRAWAL', 'Accepted another offer');
    const withdrawn = await move(tenant, id, { status: 'WITHDRAWN', reasonId: offer.id });
    expect(withdrawn.json()).toMatchObject({ status: 'WITHDRAWN', rejectionReasonId: offer.id });
    expect((await history(tenant, id))[0]).toMatchObject({ toStatus: 'WITHDRAWN', rejectionReason: { id: offer.id, name: 'Accepted another offer', kind: 'WITHDRAWAL' } });

    // A renamed reason shows its new name in the history.
    await call(tenant, 'PATCH', `${REASONS}/${experience.id}`, { name: 'Too junior' });
    expect((await history(tenant, id))[2]).toMatchObject({ rejectionReason: { id: experience.id, name: 'Too junior' } });

    // The candidate's export names the reasons of their moves.
    const candidateId = (await call(tenant, 'GET', `/public/v1/applications/${id}`)).json().candidate.id as string;
    const exported = await call(tenant, 'GET', `/public/v1/candidates/${candidateId}/export`);
    expect(exported.statusCode).toBe(200);
    const moves = (exported.json().applications[0].history as Json[]).map((entry) => [entry.toStatus, entry.rejectionReason]);
    expect(moves).toEqual([['ACTIVE', null], ['REJECTED', 'Too junior'], ['IN_REVIEW', null], ['WITHDRAWN', 'Accepted another offer']]);
  });

  it('refuses a reason for another stage, of the other kind, unknown or archived: 422, nothing written', async () => {
    const tenant = await t.tenant();
    const listing = await makeListing(t, tenant.companyId);
    const id = await submitted(tenant, listing, 'refused@example.com');
    const rejection = await reasonNamed(tenant, 'REJECTION', 'Position filled');
    const withdrawal = await reasonNamed(tenant, 'WITHDRAWAL', 'No response');
    const archived = await reasonNamed(tenant, 'REJECTION', 'Duplicate');
    await call(tenant, 'PATCH', `${REASONS}/${archived.id}`, { active: false });
    const eventsBefore = await countEvents(t, tenant.companyId);
    const historyBefore = await countRows(t, 'application_status_history', tenant.companyId);
    const path = `/public/v1/applications/${id}/status`;
    for (const body of [
      { status: 'IN_REVIEW', reasonId: rejection.id },
      { status: 'HIRED', reasonId: withdrawal.id },
      { status: 'REJECTED', reasonId: withdrawal.id },
      { status: 'WITHDRAWN', reasonId: rejection.id },
      { status: 'REJECTED', reasonId: UNKNOWN_ID },
      { status: 'REJECTED', reasonId: archived.id },
    ]) {
      const refused = expectErrorEnvelope(await move(tenant, id, body), 422, 'VALIDATION_ERROR', path);
      expect(refused.details, JSON.stringify(body)).toEqual([expect.objectContaining({ field: 'reasonId' })]);
    }
    expectErrorEnvelope(await move(tenant, id, { status: 'REJECTED', reasonId: 'nope' }), 422, 'VALIDATION_ERROR', path);
    // An unknown application is 404 before its reason is judged.
    expectErrorEnvelope(await move(tenant, UNKNOWN_ID, { status: 'REJECTED', reasonId: UNKNOWN_ID }), 404, 'NOT_FOUND', `/public/v1/applications/${UNKNOWN_ID}/status`);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    expect(await countRows(t, 'application_status_history', tenant.companyId)).toBe(historyBefore);
    expect((await call(tenant, 'GET', `/public/v1/applications/${id}`)).json()).toMatchObject({ status: 'ACTIVE', rejectionReasonId: null });
  });

  it('a company may require a reason for REJECTED (the setting, in /settings/company); WITHDRAWN stays optional', async () => {
    const tenant = await t.tenant();
    const listing = await makeListing(t, tenant.companyId);
    const [a, b] = [await submitted(tenant, listing, 'req-a@example.com'), await submitted(tenant, listing, 'req-b@example.com')];
    expect((await move(tenant, a, { status: 'REJECTED' })).statusCode).toBe(200);
    expect((await move(tenant, a, { status: 'ACTIVE' })).statusCode).toBe(200);

    expect((await updateCompanySettings(t.ctx, tenant.companyId, { requiresRejectionReason: true })).requiresRejectionReason).toBe(true);
    const eventsBefore = await countEvents(t, tenant.companyId);
    const refused = expectErrorEnvelope(await move(tenant, a, { status: 'REJECTED', reason: 'no reason picked' }), 422, 'VALIDATION_ERROR', `/public/v1/applications/${a}/status`);
    expect(refused.details).toEqual([{ field: 'reasonId', message: expect.stringContaining('required') }]);
    expect(await countEvents(t, tenant.companyId)).toBe(eventsBefore);
    expect((await move(tenant, b, { status: 'WITHDRAWN' })).statusCode).toBe(200);
    const skills = await reasonNamed(tenant, 'REJECTION', 'Skills mismatch');
    expect((await move(tenant, a, { status: 'REJECTED', reasonId: skills.id })).json()).toMatchObject({ status: 'REJECTED', rejectionReasonId: skills.id });

    // Another company is not affected.
    const other = await t.tenant();
    const otherListing = await makeListing(t, other.companyId);
    expect((await move(other, await submitted(other, otherListing, 'free@example.com'), { status: 'REJECTED' })).statusCode).toBe(200);
  });

  it('deleting a reason a move gave archives it: the history keeps its name, no new move can give it', async () => {
    const tenant = await t.tenant();
    const listing = await makeListing(t, tenant.companyId);
    const [a, b] = [await submitted(tenant, listing, 'del-a@example.com'), await submitted(tenant, listing, 'del-b@example.com')];
    const salary = await reasonNamed(tenant, 'REJECTION', 'Salary expectations');
    expect((await move(tenant, a, { status: 'REJECTED', reasonId: salary.id })).statusCode).toBe(200);

    expect((await call(tenant, 'DELETE', `${REASONS}/${salary.id}`)).statusCode).toBe(204);
    expect((await call(tenant, 'GET', `${REASONS}/${salary.id}`)).json()).toMatchObject({ id: salary.id, name: 'Salary expectations', active: false });
    expect((await history(tenant, a))[0]).toMatchObject({ rejectionReason: { id: salary.id, name: 'Salary expectations' } });
    expect((await move(tenant, b, { status: 'REJECTED', reasonId: salary.id })).statusCode).toBe(422);
    // Deleting it again still archives (and answers 204); it stays listed.
    expect((await call(tenant, 'DELETE', `${REASONS}/${salary.id}`)).statusCode).toBe(204);
    expect((await allReasons(tenant, '&active=false')).map((r) => r.id)).toEqual([salary.id]);
  });
});

describe('a reason deleted while a move gives it', () => {
  it('either the move wins (the reason is archived) or the delete does (the move is 422, nothing written)', async () => {
    const tenant = await t.tenant();
    const listing = await makeListing(t, tenant.companyId);
    for (let i = 0; i < 6; i++) {
      const reason = (await call(tenant, 'POST', REASONS, { name: `Racing ${i}`, kind: 'REJECTION' })).json() as Reason;
      const id = await submitted(tenant, listing, `race${i}@example.com`);
      const [moved, deleted] = await Promise.all([
        move(tenant, id, { status: 'REJECTED', reasonId: reason.id }),
        call(tenant, 'DELETE', `${REASONS}/${reason.id}`),
      ]);
      expect(deleted.statusCode).toBe(204);
      const after = await call(tenant, 'GET', `${REASONS}/${reason.id}`);
      const application = (await call(tenant, 'GET', `/public/v1/applications/${id}`)).json();
      if (moved.statusCode === 200) {
        expect(after.json()).toMatchObject({ id: reason.id, active: false });
        expect(application).toMatchObject({ status: 'REJECTED', rejectionReasonId: reason.id });
        expect((await history(tenant, id))[0]).toMatchObject({ rejectionReason: { id: reason.id, name: `Racing ${i}` } });
      } else {
        expectErrorEnvelope(moved, 422, 'VALIDATION_ERROR', `/public/v1/applications/${id}/status`);
        expect(after.statusCode).toBe(404);
        expect(application).toMatchObject({ status: 'ACTIVE', rejectionReasonId: null });
        expect(await history(tenant, id)).toHaveLength(1);
      }
    }
  });
});

describe('the analytics overview counts rejections by reason', () => {
  it('applications now REJECTED or WITHDRAWN, by the reason the move gave, with the overview\'s filters', async () => {
    const tenant = await t.tenant();
    const l1 = await makeListing(t, tenant.companyId);
    const l2 = await makeListing(t, tenant.companyId);
    const experience = await reasonNamed(tenant, 'REJECTION', 'Not enough experience');
    const filled = await reasonNamed(tenant, 'REJECTION', 'Position filled');
    const offer = await reasonNamed(tenant, 'WITHDRAWAL', 'Accepted another offer');

    t.clock.advance(-10 * DAY_MS);
    const early = await submitted(tenant, l1, 'early@example.com');
    t.clock.advance(10 * DAY_MS);
    const day = new Date(t.clock.now()).toISOString().slice(0, 10);
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await submitted(tenant, i < 5 ? l1 : l2, `an${i}@example.com`));
    await move(tenant, early, { status: 'REJECTED', reasonId: experience.id });
    await move(tenant, ids[0], { status: 'REJECTED', reasonId: experience.id });
    await move(tenant, ids[1], { status: 'REJECTED', reasonId: filled.id });
    await move(tenant, ids[2], { status: 'REJECTED' });
    await move(tenant, ids[3], { status: 'WITHDRAWN', reasonId: offer.id });
    await move(tenant, ids[5], { status: 'REJECTED', reasonId: filled.id });
    // Rejected with a reason, then back in the pipeline: no longer counted.
    await move(tenant, ids[4], { status: 'REJECTED', reasonId: filled.id });
    await move(tenant, ids[4], { status: 'INTERVIEW' });

    const ref = (reason: Reason) => ({ id: reason.id, name: reason.name, kind: reason.kind });
    const overview = async (query = '') => {
      const res = await call(tenant, 'GET', `/public/v1/analytics/overview${query}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { applicationsByStage: Record<string, number>; rejectionsByReason: Json[] };
    };
    const all = await overview();
    expect(all.rejectionsByReason).toEqual([
      { status: 'REJECTED', reason: ref(experience), count: 2 },
      { status: 'REJECTED', reason: ref(filled), count: 2 },
      { status: 'REJECTED', reason: null, count: 1 },
      { status: 'WITHDRAWN', reason: ref(offer), count: 1 },
    ]);
    expect(all.applicationsByStage).toMatchObject({ REJECTED: 5, WITHDRAWN: 1 });

    // Submitted on the day (the early one left out), and one listing.
    expect((await overview(`?from=${day}&to=${day}`)).rejectionsByReason).toEqual([
      { status: 'REJECTED', reason: ref(filled), count: 2 },
      { status: 'REJECTED', reason: ref(experience), count: 1 },
      { status: 'REJECTED', reason: null, count: 1 },
      { status: 'WITHDRAWN', reason: ref(offer), count: 1 },
    ]);
    expect((await overview(`?jobListingId=${l2}`)).rejectionsByReason).toEqual([{ status: 'REJECTED', reason: ref(filled), count: 1 }]);

    // An archived reason keeps counting under its name; another company counts none of these.
    await call(tenant, 'DELETE', `${REASONS}/${experience.id}`);
    expect((await overview()).rejectionsByReason[0]).toEqual({ status: 'REJECTED', reason: ref(experience), count: 2 });
    const other = await t.tenant();
    expect((await call(other, 'GET', '/public/v1/analytics/overview')).json().rejectionsByReason).toEqual([]);
  });
});
