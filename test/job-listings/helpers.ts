// Shared by the job listing suites: requests, a listing with every field, and event reads.
import { and, asc, eq } from 'drizzle-orm';
import type { TestApp } from '../helpers/test-app.ts';
import { events } from '../../src/infra/outbox/tables.ts';

export const SECTOR_ID = '0f624620-bb62-4edb-aef6-f63ca252c66c'; // Software Development
export const TAG_IT = 'b7d40ef9-2a57-454f-8430-2c066c75ad45'; // INDUSTRY Information Technology
export const TAG_SALES = 'b6e3c2e5-bfa8-40c3-b562-13b2f7789ab1'; // SKILL Sales
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';

export const MINIMAL = { position: 'Backend engineer', positionType: 'FULL_TIME', workPlaceType: 'REMOTE' } as const;

/** Exactly the fields of the contract's create row. */
export const CONTRACT_CREATE = {
  position: 'Data analyst',
  positionType: 'PART_TIME',
  workPlaceType: 'HYBRID',
  currency: 'EUR',
  salaryBase: 42000,
  paymentInterval: 'YEARLY',
} as const;

export const FULL = {
  position: 'Senior backend engineer',
  positionType: 'FULL_TIME',
  workPlaceType: 'HYBRID',
  language: 'en',
  sectorId: SECTOR_ID,
  address: {
    street: '1 Main Street',
    city: 'Berlin',
    state: 'Berlin',
    country: 'DE',
    postalCode: '10115',
    latitude: 52.52,
    longitude: 13.405,
  },
  isStartDate: true,
  startDate: '2031-02-01',
  jobDescription: 'Build and run our APIs.',
  requirementsSummary: 'Five years of backend work.',
  personalQualitiesSummary: 'Curious and careful.',
  skills: [
    { value: 'TypeScript', type: 'SKILL', expertType: 'ADVANCED' },
    { value: 'German', type: 'LANGUAGE', languageProficiency: 'B2' },
    { value: 'Car', type: 'DRIVING_LICENSE', drivingClass: 'B', expertType: null },
  ],
  currency: 'EUR',
  salaryBase: 70000,
  isSalaryMax: true,
  salaryMax: 90000.5,
  salaryType: 'GROSS',
  paymentInterval: 'YEARLY',
  salaryDescription: 'Plus a yearly bonus.',
  benefits: ['Lunch', 'Remote days'],
  educationLevel: 'BACHELOR',
  fieldOfStudy: 'Computer science',
  yearsOfExperience: 5,
  availableForEveryCountry: false,
  numberOfPositionsOpened: 2,
  jobListingEndDate: '2031-06-30',
  referenceNumber: 'REF-42',
  hiringProcessSteps: [
    { stepName: 'Phone call', description: 'Thirty minutes with a recruiter.' },
    { stepName: 'Tech interview' },
  ],
  jobListingTags: [{ tagId: TAG_IT }, { tagId: TAG_SALES }],
  jobListingRequirements: [{ requirementText: 'Node.js' }, { requirementText: 'PostgreSQL' }],
};

export type Headers = Record<string, string>;

export function api(t: TestApp) {
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: unknown) =>
    t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    call,
    create: async (headers: Headers, body: object = MINIMAL) => {
      const res = await call('POST', '/public/v1/job-listings', headers, body);
      if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
      return res.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    },
    move: (headers: Headers, id: string, action: 'publish' | 'close' | 'archive') =>
      call('POST', `/public/v1/job-listings/${id}/${action}`, headers),
  };
}

/** The job_listing.* events of a company, oldest first. */
export async function eventsOf(t: TestApp, companyId: string, type?: string) {
  return t.ctx.db
    .select()
    .from(events)
    .where(and(eq(events.companyId, companyId), type ? eq(events.type, type) : undefined))
    .orderBy(asc(events.occurredAt), asc(events.id));
}
