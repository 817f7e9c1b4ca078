// The first-start demo: a newcomer's first calls must answer something meaningful.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoIfEmpty, type DemoSeed } from '../../src/tooling/demo/seed-demo.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { countEvents } from '../helpers/factories.ts';

let t: TestApp;
let demo: DemoSeed;
beforeAll(async () => {
  t = await buildTestApp();
  // Before any other company exists: the demo seeds only an empty database.
  demo = (await seedDemoIfEmpty(t.ctx))!;
});
afterAll(async () => t.close());

function get(url: string) {
  return t.app.inject({ method: 'GET', url, headers: { 'x-api-key': demo.apiKey.rawKey } });
}

describe('demo pipeline', () => {
  it('gives the demo company listings in several statuses, candidates and applications in several stages', async () => {
    expect(demo.pipeline).toEqual({ listings: 6, candidates: 28, applications: 26 });

    const listings = (await get('/public/v1/job-listings?size=100&status=DRAFT&status=ACTIVE&status=CLOSED&status=ARCHIVED')).json();
    expect(new Set(listings.data.map((l: { status: string }) => l.status))).toEqual(new Set(['DRAFT', 'ACTIVE', 'CLOSED', 'ARCHIVED']));

    const applications = (await get('/public/v1/applications?size=100')).json();
    expect(applications.pagination.totalElements).toBe(26);
    const stages = new Set(applications.data.map((a: { status: string }) => a.status));
    expect(stages).toEqual(new Set(['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED', 'REJECTED', 'WITHDRAWN']));
    expect(new Set(applications.data.map((a: { source: string }) => a.source))).toContain('IMPORTED');
    const now = Date.now();
    for (const a of applications.data) expect(new Date(a.updatedAt).getTime()).toBeLessThan(now);

    expect((await get('/public/v1/candidates')).json().pagination.totalElements).toBe(28);
    expect((await get('/public/v1/candidates?q=sql')).json().data.length).toBeGreaterThanOrEqual(4);

    const hired = applications.data.find((a: { status: string }) => a.status === 'HIRED');
    const history = (await get(`/public/v1/applications/${hired.id}/history`)).json();
    expect(history.data[0].toStatus).toBe('HIRED');
    expect(history.data.at(-1)).toMatchObject({ fromStatus: null, toStatus: 'ACTIVE' });

    const overview = (await get('/public/v1/analytics/overview')).json();
    expect(overview.totalApplications).toBe(26);
    expect(overview.hires).toBe(3);
    expect(overview.medianDaysToHire).toBeGreaterThan(10);
    expect(overview.funnel[4].count).toBe(3);
  });

  it('leaves one outbox event per change, as the API would', async () => {
    const companyId = demo.company.id;
    expect(await countEvents(t, companyId, 'candidate.created')).toBe(28);
    expect(await countEvents(t, companyId, 'application.created')).toBe(26);
    // Notes by the demo key; rejections give the company's reasons.
    expect(await countEvents(t, companyId, 'note.created')).toBe(4);
    expect((await get('/public/v1/analytics/overview')).json().rejectionsByReason.filter((row: { reason: unknown }) => row.reason !== null).length).toBeGreaterThan(0);
    expect(await countEvents(t, companyId, 'job_listing.created')).toBe(6);
    // One status_changed event per move in the histories (the first entry is the submission).
    let moves = 0;
    for (const application of (await get('/public/v1/applications?size=100')).json().data) {
      moves += (await get(`/public/v1/applications/${application.id}/history`)).json().pagination.totalElements - 1;
    }
    expect(moves).toBe(38);
    expect(await countEvents(t, companyId, 'application.status_changed')).toBe(moves);
  });

  it('runs only on an empty database', async () => {
    expect(await seedDemoIfEmpty(t.ctx)).toBeNull();
  });
});
