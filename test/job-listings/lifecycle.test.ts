// Every lifecycle move through HTTP (allowed and refused), listing review, timestamps, and the
// automatic close of expired listings under a controlled clock.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { updateCompanySettings } from '../../src/modules/companies/service.ts';
import { startScheduledWork } from '../../src/scheduled-work.ts';
import {
  approveJobListing,
  closeExpiredJobListings,
  getJobListing,
  rejectJobListing,
} from '../../src/modules/job-listings/service.ts';
import { ConflictError, NotFoundError, ValidationError } from '../../src/shared/errors.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { api, CONTRACT_CREATE, eventsOf, MINIMAL, MISSING_ID } from './helpers.ts';

let t: TestApp;
let j: ReturnType<typeof api>;
beforeAll(async () => {
  t = await buildTestApp();
  j = api(t);
});
afterAll(async () => t.close());
afterEach(() => {
  t.clock.offsetMs = 0;
});

type Status = 'DRAFT' | 'ACTIVE' | 'UNDER_REVIEW' | 'CLOSED' | 'ARCHIVED';
type Action = 'publish' | 'close' | 'archive';

/** A listing of `tenant` brought into `status` through the API. */
async function listingIn(tenant: Tenant, status: Status): Promise<string> {
  const id = (await j.create(tenant.headers, CONTRACT_CREATE)).id as string;
  const run = async (action: Action) => expect((await j.move(tenant.headers, id, action)).statusCode).toBe(200);
  if (status === 'ACTIVE') await run('publish');
  if (status === 'CLOSED') {
    await run('publish');
    await run('close');
  }
  if (status === 'ARCHIVED') await run('archive');
  if (status === 'UNDER_REVIEW') {
    await updateCompanySettings(t.ctx, tenant.companyId, { requiresListingReview: true });
    await run('publish');
    await updateCompanySettings(t.ctx, tenant.companyId, { requiresListingReview: false });
  }
  return id;
}

const ALLOWED: Record<Status, Partial<Record<Action, Status>>> = {
  DRAFT: { publish: 'ACTIVE', archive: 'ARCHIVED' },
  ACTIVE: { publish: 'ACTIVE', close: 'CLOSED', archive: 'ARCHIVED' },
  UNDER_REVIEW: { close: 'CLOSED', archive: 'ARCHIVED' },
  CLOSED: { publish: 'ACTIVE', archive: 'ARCHIVED' },
  ARCHIVED: {},
};

describe('lifecycle moves through HTTP', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await t.tenant();
  });

  for (const status of Object.keys(ALLOWED) as Status[]) {
    for (const action of ['publish', 'close', 'archive'] as const) {
      const next = ALLOWED[status][action];
      it(`${status} --${action}--> ${next ?? '409'}`, async () => {
        const id = await listingIn(tenant, status);
        const res = await j.move(tenant.headers, id, action);
        if (next) {
          expect(res.statusCode).toBe(200);
          expect(res.json().status).toBe(next);
          expect(res.headers['content-language']).toBe('en');
        } else {
          expect(res.statusCode).toBe(409);
          expect(res.json()).toMatchObject({ status: 409, error: 'CONFLICT', details: [{ field: 'status', message: `is ${status}` }] });
          expect(res.json().message).toContain(status);
          expect((await j.call('GET', `/public/v1/job-listings/${id}`, tenant.headers)).json().status).toBe(status);
        }
      });
    }
  }

  it('answers 404 for an unknown id on every move', async () => {
    for (const action of ['publish', 'close', 'archive'] as const) {
      expect((await j.move(tenant.headers, MISSING_ID, action)).statusCode).toBe(404);
    }
  });

  it('publishes a listing made with only the contract create fields, setting publishedAt and expiresAt', async () => {
    const id = (await j.create(tenant.headers, CONTRACT_CREATE)).id;
    const res = await j.move(tenant.headers, id, 'publish');
    const body = res.json();
    expect(body.status).toBe('ACTIVE');
    expect(body.publishedAt).toBe(body.updatedAt);
    expect(new Date(body.expiresAt).getTime() - new Date(body.publishedAt).getTime()).toBe(60 * DAY_MS);
    expect(body.closedAt).toBeNull();
    const [event] = await eventsOf(t, tenant.companyId, 'job_listing.published').then((all) => all.filter((e) => (e.data as { id: string }).id === id));
    expect(event.data).toEqual(body);
  });

  it('publishing an ACTIVE listing is a no-op: same listing, no event', async () => {
    const id = await listingIn(tenant, 'ACTIVE');
    const before = (await j.call('GET', `/public/v1/job-listings/${id}`, tenant.headers)).json();
    const count = (await eventsOf(t, tenant.companyId)).length;
    t.clock.advance(1000);
    const res = await j.move(tenant.headers, id, 'publish');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(before);
    expect((await eventsOf(t, tenant.companyId)).length).toBe(count);
  });

  it('close sets closedAt; reopening keeps publishedAt, clears closedAt and starts a new 60 days', async () => {
    const id = await listingIn(tenant, 'ACTIVE');
    const published = (await j.call('GET', `/public/v1/job-listings/${id}`, tenant.headers)).json();
    t.clock.advance(DAY_MS);
    const closed = (await j.move(tenant.headers, id, 'close')).json();
    expect(closed.status).toBe('CLOSED');
    expect(closed.closedAt).toBe(closed.updatedAt);
    t.clock.advance(DAY_MS);
    const reopened = (await j.move(tenant.headers, id, 'publish')).json();
    expect(reopened.status).toBe('ACTIVE');
    expect(reopened.publishedAt).toBe(published.publishedAt);
    expect(reopened.closedAt).toBeNull();
    expect(new Date(reopened.expiresAt).getTime() - new Date(reopened.updatedAt).getTime()).toBe(60 * DAY_MS);
  });

  it('an archived listing is read-only: every change answers 409', async () => {
    const id = await listingIn(tenant, 'ARCHIVED');
    const url = `/public/v1/job-listings/${id}`;
    for (const res of [
      await j.call('PATCH', url, tenant.headers, { position: 'x' }),
      await j.call('PUT', `${url}/translations/de`, tenant.headers, { position: 'x' }),
      await j.call('DELETE', url, tenant.headers),
      await j.move(tenant.headers, id, 'publish'),
      await j.move(tenant.headers, id, 'close'),
      await j.move(tenant.headers, id, 'archive'),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toContain('ARCHIVED');
    }
    expect((await j.call('GET', url, tenant.headers)).statusCode).toBe(200);
  });

  it('records one event per move: published, closed, archived', async () => {
    const other = await t.tenant();
    const id = await listingIn(other, 'ACTIVE');
    await j.move(other.headers, id, 'close');
    await j.move(other.headers, id, 'archive');
    const types = (await eventsOf(t, other.companyId)).map((event) => event.type).sort();
    expect(types).toEqual(['job_listing.archived', 'job_listing.closed', 'job_listing.created', 'job_listing.published']);
    const archived = (await eventsOf(t, other.companyId, 'job_listing.archived'))[0];
    expect(archived.data).toMatchObject({ id, status: 'ARCHIVED' });
  });
});

describe('end date and expiry', () => {
  it('sets expiresAt to the end of jobListingEndDate and refuses to publish once it has passed', async () => {
    const tenant = await t.tenant();
    const tomorrow = new Date(t.clock.now().getTime() + DAY_MS).toISOString().slice(0, 10);
    const id = (await j.create(tenant.headers, { ...MINIMAL, jobListingEndDate: tomorrow })).id;
    const published = (await j.move(tenant.headers, id, 'publish')).json();
    expect(published.expiresAt).toBe(`${tomorrow}T23:59:59.999Z`);

    const patched = await j.call('PATCH', `/public/v1/job-listings/${id}`, tenant.headers, { jobListingEndDate: null });
    expect(new Date(patched.json().expiresAt).getTime() - new Date(published.publishedAt).getTime()).toBe(60 * DAY_MS);

    const yesterday = new Date(t.clock.now().getTime() - DAY_MS).toISOString().slice(0, 10);
    const late = (await j.create(tenant.headers, { ...MINIMAL, jobListingEndDate: yesterday })).id;
    const res = await j.move(tenant.headers, late, 'publish');
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'jobListingEndDate', message: expect.stringMatching(/past/) }]);
  });

  it('closes ACTIVE listings past expiresAt, and only those, with job_listing.closed', async () => {
    const tenant = await t.tenant();
    const expiring = await listingIn(tenant, 'ACTIVE');
    const endDate = new Date(t.clock.now().getTime() + 10 * DAY_MS).toISOString().slice(0, 10);
    const withEndDate = (await j.create(tenant.headers, { ...MINIMAL, jobListingEndDate: endDate })).id;
    await j.move(tenant.headers, withEndDate, 'publish');
    const draft = await listingIn(tenant, 'DRAFT');
    const closed = await listingIn(tenant, 'CLOSED');
    const status = async (id: string) => (await getJobListing(t.ctx, tenant.companyId, id)).listing.status;

    await closeExpiredJobListings(t.ctx);
    expect(await status(expiring)).toBe('ACTIVE');

    t.clock.advance(12 * DAY_MS); // past the end date, not yet 60 days
    expect(await closeExpiredJobListings(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await status(withEndDate)).toBe('CLOSED');
    expect(await status(expiring)).toBe('ACTIVE');

    t.clock.advance(50 * DAY_MS); // 62 days after publishing
    await closeExpiredJobListings(t.ctx);
    const expired = (await getJobListing(t.ctx, tenant.companyId, expiring)).listing;
    expect(expired.status).toBe('CLOSED');
    expect(new Date(expired.closedAt!).getTime()).toBeGreaterThanOrEqual(new Date(expired.expiresAt!).getTime());
    expect(await status(draft)).toBe('DRAFT');
    expect(await status(closed)).toBe('CLOSED');
    expect(await closeExpiredJobListings(t.ctx)).toBe(0);

    const closedEvents = (await eventsOf(t, tenant.companyId, 'job_listing.closed')).map((event) => event.data as { id: string; status: string });
    expect(closedEvents.filter((data) => data.id === expiring)).toEqual([expect.objectContaining({ id: expiring, status: 'CLOSED' })]);
    expect(closedEvents.filter((data) => data.id === withEndDate)).toHaveLength(1);
  });

  it('the scheduled work closes expired listings and stops cleanly', async () => {
    const tenant = await t.tenant();
    const id = await listingIn(tenant, 'ACTIVE');
    t.clock.advance(61 * DAY_MS);
    const lines: Array<Record<string, unknown>> = [];
    const log = { debug() {}, info: (fields: object) => void lines.push(fields as Record<string, unknown>), warn() {}, error() {} };
    const work = startScheduledWork(t.deps, log);
    try {
      await expect.poll(async () => (await getJobListing(t.ctx, tenant.companyId, id)).listing.status, { timeout: 5000 }).toBe('CLOSED');
    } finally {
      await work.stop();
    }
    const closed = lines.filter((line) => line.sweep === 'close expired job listings');
    expect(closed.reduce((sum, line) => sum + (line.count as number), 0)).toBeGreaterThanOrEqual(1);
  });
});

describe('listing review', () => {
  let tenant: Tenant;
  beforeAll(async () => {
    tenant = await t.tenant();
    await updateCompanySettings(t.ctx, tenant.companyId, { requiresListingReview: true });
  });

  it('publish moves a DRAFT to UNDER_REVIEW (an update, not yet published); publishing again is 409', async () => {
    const id = (await j.create(tenant.headers, CONTRACT_CREATE)).id;
    const res = await j.move(tenant.headers, id, 'publish');
    expect(res.json()).toMatchObject({ status: 'UNDER_REVIEW', publishedAt: null, expiresAt: null });
    const events = (await eventsOf(t, tenant.companyId)).filter((event) => (event.data as { id: string }).id === id);
    expect(events.map((event) => event.type).sort()).toEqual(['job_listing.created', 'job_listing.updated']);
    expect((await j.move(tenant.headers, id, 'publish')).statusCode).toBe(409);
  });

  it('approve makes it ACTIVE and published', async () => {
    const id = (await j.create(tenant.headers, CONTRACT_CREATE)).id;
    await j.move(tenant.headers, id, 'publish');
    const { listing, language } = await approveJobListing(t.ctx, tenant.companyId, id);
    expect(language).toBe('en');
    expect(listing.status).toBe('ACTIVE');
    expect(listing.publishedAt).not.toBeNull();
    expect(listing.expiresAt).not.toBeNull();
    const published = (await eventsOf(t, tenant.companyId, 'job_listing.published')).filter((e) => (e.data as { id: string }).id === id);
    expect(published).toHaveLength(1);
    // A listing approved once reopens without a new review.
    await j.move(tenant.headers, id, 'close');
    expect((await j.move(tenant.headers, id, 'publish')).json().status).toBe('ACTIVE');
  });

  it('reject sends it back to DRAFT with the reason, cleared on the next publish', async () => {
    const id = (await j.create(tenant.headers, CONTRACT_CREATE)).id;
    await j.move(tenant.headers, id, 'publish');
    await expect(rejectJobListing(t.ctx, tenant.companyId, id, '  ')).rejects.toBeInstanceOf(ValidationError);
    const { listing } = await rejectJobListing(t.ctx, tenant.companyId, id, 'Salary range missing');
    expect(listing).toMatchObject({ status: 'DRAFT', rejectionReason: 'Salary range missing' });
    const read = (await j.call('GET', `/public/v1/job-listings/${id}`, tenant.headers)).json();
    expect(read.rejectionReason).toBe('Salary range missing');
    const again = (await j.move(tenant.headers, id, 'publish')).json();
    expect(again).toMatchObject({ status: 'UNDER_REVIEW', rejectionReason: null });
  });

  it('a listing closed while under review goes back to review when reopened', async () => {
    const id = (await j.create(tenant.headers, CONTRACT_CREATE)).id;
    await j.move(tenant.headers, id, 'publish');
    expect((await j.move(tenant.headers, id, 'close')).json().status).toBe('CLOSED');
    expect((await j.move(tenant.headers, id, 'publish')).json().status).toBe('UNDER_REVIEW');
  });

  it('approve and reject refuse listings that are not UNDER_REVIEW, and other companies\' listings', async () => {
    const draft = (await j.create(tenant.headers, CONTRACT_CREATE)).id;
    await expect(approveJobListing(t.ctx, tenant.companyId, draft)).rejects.toBeInstanceOf(ConflictError);
    await expect(rejectJobListing(t.ctx, tenant.companyId, draft, 'no')).rejects.toBeInstanceOf(ConflictError);
    await j.move(tenant.headers, draft, 'publish');
    const stranger = await t.tenant();
    await expect(approveJobListing(t.ctx, stranger.companyId, draft)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rejectJobListing(t.ctx, stranger.companyId, draft, 'no')).rejects.toBeInstanceOf(NotFoundError);
  });
});
