// Service-level checks of what other modules use directly (applications embed and lock listings).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/shared/errors.ts';
import { withTransaction } from '../../src/shared/context.ts';
import {
  closeJobListing,
  createJobListing,
  getJobListing,
  lockJobListingStatus,
  publishJobListing,
} from '../../src/modules/job-listings/service.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

describe('job listing service', () => {
  it('creates and reads a listing; other companies see nothing', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const created = await createJobListing(t.ctx, a.companyId, {
      position: 'Backend engineer',
      positionType: 'FULL_TIME',
      workPlaceType: 'HYBRID',
      currency: 'eur',
      salaryBase: 50000.5,
      salaryMax: 70000,
      startDate: '2030-01-15',
      benefits: ['Lunch'],
      hiringProcessSteps: [{ stepName: 'Call' }],
      jobListingRequirements: [{ requirementText: 'TypeScript' }],
      address: { city: 'Berlin', country: 'DE', latitude: 52.5 },
    });
    expect(created.language).toBe('en');
    expect(created.listing).toMatchObject({
      status: 'DRAFT',
      currency: 'EUR',
      salaryBase: 50000.5,
      salaryMax: 70000,
      startDate: '2030-01-15',
      address: { city: 'Berlin', country: 'DE', latitude: 52.5, street: null },
      position: { value: 'Backend engineer', original: 'Backend engineer', sourceLanguage: 'en', translated: false, translationType: null },
    });
    const read = await getJobListing(t.ctx, a.companyId, created.listing.id);
    expect(read.listing).toEqual(created.listing);
    await expect(getJobListing(t.ctx, b.companyId, created.listing.id)).rejects.toBeInstanceOf(NotFoundError);

    expect(await lockJobListingStatus(t.ctx, a.companyId, created.listing.id)).toEqual({ id: created.listing.id, status: 'DRAFT' });
    expect(await lockJobListingStatus(t.ctx, b.companyId, created.listing.id)).toBeUndefined();
  });

  it("lockJobListingStatus joins the caller's transaction: the listing cannot be closed until it ends", async () => {
    const a = await t.tenant();
    const { listing } = await createJobListing(t.ctx, a.companyId, { position: 'Welder', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' });
    await publishJobListing(t.ctx, a.companyId, listing.id);
    let closed = false;
    let closing: Promise<unknown> | undefined;
    await withTransaction(t.ctx, async (tx) => {
      expect((await lockJobListingStatus(tx, a.companyId, listing.id))?.status).toBe('ACTIVE');
      closing = closeJobListing(t.ctx, a.companyId, listing.id).then(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(closed).toBe(false);
    });
    await closing;
    expect((await getJobListing(t.ctx, a.companyId, listing.id)).listing.status).toBe('CLOSED');
  });
});
