// Real data for the fuzzer, made through the public API itself: two companies, each with listings
// in every status, candidates, applications with a history, a translation, webhook subscriptions
// and a logged delivery. The other company's texts carry a marker that must never show up in an
// answer to the caller.
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/service.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { Pools, ResourceKind } from './requests.ts';

export const OTHER_MARKER = 'OTHERCOMPANYSECRET';

type Ids = Record<ResourceKind, string[]>;

async function call(t: TestApp, key: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) {
  const res = await t.app.inject({ method, url, headers: { 'x-api-key': key }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300 && !(url.endsWith('/test') && res.statusCode === 502)) {
    throw new Error(`seeding ${method} ${url} answered ${res.statusCode}: ${res.body}`);
  }
  return res.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function seedCompany(t: TestApp, key: string, label: string): Promise<{ ids: Ids; emails: string[]; hiringStepIds: string[] }> {
  const ids: Ids = { listing: [], candidate: [], application: [], webhook: [], delivery: [] };
  const hiringStepIds: string[] = [];
  const listing = (n: number) => ({
    position: `${label} engineer ${n}`,
    positionType: 'FULL_TIME',
    workPlaceType: 'HYBRID',
    jobDescription: `${label} builds things.`,
    benefits: [`${label} lunch`],
    skills: [{ value: `${label} TypeScript`, type: 'SKILL', expertType: 'ADVANCED' }],
    hiringProcessSteps: [{ stepName: `${label} call` }],
    currency: 'EUR',
    salaryBase: 50_000,
    jobListingEndDate: '2099-12-31',
  });
  for (let n = 0; n < 7; n++) {
    const created = await call(t, key, 'POST', '/public/v1/job-listings', listing(n));
    ids.listing.push(created.id);
    for (const step of created.hiringProcessSteps ?? []) hiringStepIds.push(step.id);
  }
  const [draft, , active1, active2, closed, archived, review] = ids.listing;
  void draft;
  for (const id of [active1, active2, closed, review]) await call(t, key, 'POST', `/public/v1/job-listings/${id}/publish`);
  await call(t, key, 'POST', `/public/v1/job-listings/${closed}/close`);
  await call(t, key, 'POST', `/public/v1/job-listings/${archived}/archive`);
  await call(t, key, 'PUT', `/public/v1/job-listings/${active1}/translations/de`, { position: `${label} Ingenieur` });

  const emails = [0, 1, 2, 3].map((n) => `${label.toLowerCase()}.${n}@example.com`);
  const imported = await call(t, key, 'POST', '/public/v1/candidates/import', {
    jobListingId: active1,
    candidates: emails.map((email, n) => ({ firstName: `${label}${n}`, lastName: 'Lovelace', email, skills: ['SQL'], links: ['https://example.com/cv'] })),
  });
  for (const row of imported.results ?? imported.candidates ?? []) if (row.candidateId ?? row.id) ids.candidate.push(row.candidateId ?? row.id);
  const submitted = await call(t, key, 'POST', '/public/v1/applications', {
    jobListingId: active2,
    candidate: { firstName: label, lastName: 'Hopper', email: emails[0] },
    coverLetter: `${label} letter`,
  });
  ids.application.push(submitted.id);
  const applications = await call(t, key, 'GET', '/public/v1/applications?size=100');
  for (const application of applications.data) if (!ids.application.includes(application.id)) ids.application.push(application.id);
  await call(t, key, 'PATCH', `/public/v1/applications/${ids.application[0]}/status`, { status: 'INTERVIEW', reason: `${label} good` });
  await call(t, key, 'PATCH', `/public/v1/applications/${ids.application[1]}/status`, { status: 'REJECTED' });
  if (ids.candidate.length === 0) {
    const candidates = await call(t, key, 'GET', '/public/v1/candidates?size=100');
    ids.candidate.push(...candidates.data.map((c: { id: string }) => c.id));
  }

  for (const url of ['http://127.0.0.1:9/hook', 'http://localhost:9/other']) {
    const subscription = await call(t, key, 'POST', '/public/v1/webhooks', { url, events: ['job_listing.created', 'application.created'] });
    ids.webhook.push(subscription.id);
    await call(t, key, 'POST', `/public/v1/webhooks/${subscription.id}/test`);
    const deliveries = await call(t, key, 'GET', `/public/v1/webhooks/${subscription.id}/deliveries`);
    ids.delivery.push(...deliveries.data.map((d: { id: string }) => d.id));
  }
  await call(t, key, 'PATCH', `/public/v1/webhooks/${ids.webhook[1]}`, { active: false });
  return { ids, emails, hiringStepIds };
}

export interface Seeded {
  pools: Pools;
  ownCompanyId: string;
  otherCompanyId: string;
  emails: string[];
  hiringStepIds: string[];
  /** Every id of the other company, for the tenancy checks. */
  otherIds: Set<string>;
}

export async function seedTwoCompanies(t: TestApp): Promise<Seeded> {
  const own = await t.tenant();
  const other = await t.tenant();
  const ownData = await seedCompany(t, own.apiKey, 'Own');
  const otherData = await seedCompany(t, other.apiKey, OTHER_MARKER);
  const revoked = await createApiKey(t.ctx, { companyId: own.companyId, label: 'revoked', scopes: ['jobs:read'] });
  await revokeApiKey(t.ctx, own.companyId, revoked.id);
  return {
    pools: {
      own: ownData.ids,
      other: otherData.ids,
      keys: {
        full: own.apiKey,
        readOnly: await t.keyFor(own.companyId, ['jobs:read', 'applications:read', 'candidates:read', 'analytics:read']),
        narrow: await t.keyFor(own.companyId, ['analytics:read']),
        revoked: revoked.rawKey,
      },
    },
    ownCompanyId: own.companyId,
    otherCompanyId: other.companyId,
    emails: [...ownData.emails, ...otherData.emails, 'OWN.1@EXAMPLE.COM'],
    hiringStepIds: ownData.hiringStepIds,
    otherIds: new Set(Object.values(otherData.ids).flat()),
  };
}
