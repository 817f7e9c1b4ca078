// The candidate list across every listing, with its filters. Without a filter on the applications
// (stage, listing, source, applied date) it is the candidates list (paged by the server, searched
// by `q`, best match first). With one it is the applications list, every filter applied and paged
// by the server (`status`, `jobListingId`, `source`, `appliedFrom`, `appliedTo`, and `q`: the
// applications whose candidate matches the same search), newest first.
import type { paths } from '@recruiting/sdk';
import { api, call, type Schemas } from '../../api';
import type { Source, Stage } from '../../labels';

export interface Filters {
  q: string;
  stages: Stage[];
  listing: string | null;
  source: Source | null;
  /** Applied on or after this day (YYYY-MM-DD, the browser's time zone). */
  from: string | null;
  /** Applied on or before this day. */
  to: string | null;
}

export interface Row {
  key: string;
  candidateId: string;
  name: string;
  email: string;
  /** Candidate rows: how the candidate first came, and when. */
  candidate?: { source: string; createdAt: string };
  /** Application rows: the application the filters matched. */
  application?: { jobListingId: string; status: Stage; source: Source; appliedAt: string };
}

export interface Results {
  rows: Row[];
  total: number;
  totalPages: number;
  /** The filters ask for nothing that can exist (a period that ends before it starts), in words. */
  problem: string | undefined;
}

export const PAGE_SIZE = 20;

export const byApplication = (filters: Filters) =>
  filters.stages.length > 0 || filters.listing !== null || filters.source !== null || filters.from !== null || filters.to !== null;

/** The instant a day of the browser's time zone starts, and the next day's (the API's period is [from, to)). */
const dayStart = (day: string) => new Date(`${day}T00:00:00`);
function nextDayStart(day: string): Date {
  const next = dayStart(day);
  next.setDate(next.getDate() + 1);
  return next;
}

type ApplicationQuery = NonNullable<paths['/public/v1/applications']['get']['parameters']['query']>;

/** The application filters as the API's query. */
function applicationQuery(filters: Filters): ApplicationQuery {
  return {
    ...(filters.listing ? { jobListingId: filters.listing } : {}),
    ...(filters.stages.length > 0 ? { status: filters.stages } : {}),
    ...(filters.source ? { source: [filters.source] } : {}),
    ...(filters.from ? { appliedFrom: dayStart(filters.from).toISOString() } : {}),
    ...(filters.to ? { appliedTo: nextDayStart(filters.to).toISOString() } : {}),
    ...(filters.q ? { q: filters.q } : {}),
  };
}

async function candidatesPage(filters: Filters, page: number): Promise<Results> {
  const answer = await call(api.GET('/public/v1/candidates', { params: { query: { page: page - 1, size: PAGE_SIZE, ...(filters.q ? { q: filters.q } : {}) } } }));
  return {
    rows: answer.data.map((candidate) => ({
      key: candidate.id,
      candidateId: candidate.id,
      name: `${candidate.firstName} ${candidate.lastName}`,
      email: candidate.email,
      candidate: { source: candidate.source, createdAt: candidate.createdAt },
    })),
    total: answer.pagination.totalElements,
    totalPages: answer.pagination.totalPages,
    problem: undefined,
  };
}

const rowOf = (application: Schemas['ApplicationSummary']): Row => ({
  key: application.id,
  candidateId: application.jobSeekerId,
  name: `${application.candidate.firstName} ${application.candidate.lastName}`,
  email: application.candidate.email,
  application: { jobListingId: application.jobListingId, status: application.status, source: application.source, appliedAt: application.appliedAt },
});

/** The applications matching the filters (the search too), a page of them, filtered and paged by the server. */
async function applicationsPage(filters: Filters, page: number): Promise<Results> {
  const answer = await call(api.GET('/public/v1/applications', { params: { query: { ...applicationQuery(filters), page: page - 1, size: PAGE_SIZE } } }));
  return { rows: answer.data.map(rowOf), total: answer.pagination.totalElements, totalPages: answer.pagination.totalPages, problem: undefined };
}

export function findCandidates(filters: Filters, page: number): Promise<Results> {
  if (filters.from && filters.to && filters.to < filters.from) {
    const problem = 'The period ends before it starts: pick an “Applied until” day on or after “Applied from”.';
    return Promise.resolve({ rows: [], total: 0, totalPages: 0, problem });
  }
  if (!byApplication(filters)) return candidatesPage(filters, page);
  return applicationsPage(filters, page);
}
