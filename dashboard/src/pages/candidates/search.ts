// The candidate list across every listing, with its filters. Without a filter on the applications
// (stage, listing, source, applied date) it is the candidates list (paged by the server, searched
// by `q`). With one it is the applications list, every filter applied and paged by the server
// (`status`, `jobListingId`, `source`, `appliedFrom`, `appliedTo`). The API has no text search on
// applications, so a search together with application filters is combined here, exactly, for the
// search's best COMBINE_LIMIT matches: each matched candidate's applications are read with the
// same filters. A search that matched more says so on the page.
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
  /** A search with application filters that matched more candidates than were combined: how many it matched. */
  searchMatched: number | undefined;
  /** The filters ask for nothing that can exist (a period that ends before it starts), in words. */
  problem: string | undefined;
}

export const PAGE_SIZE = 20;
/** A search combined with application filters: its best matches looked at (one request each). */
export const COMBINE_LIMIT = 20;
/** The applications of one matched candidate, read a page of this size at a time. */
const CANDIDATE_PAGE = 100;

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
    searchMatched: undefined,
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

/** The applications matching the filters, a page of them, filtered and paged by the server. */
async function applicationsPage(filters: Filters, page: number): Promise<Results> {
  const answer = await call(api.GET('/public/v1/applications', { params: { query: { ...applicationQuery(filters), page: page - 1, size: PAGE_SIZE } } }));
  return { rows: answer.data.map(rowOf), total: answer.pagination.totalElements, totalPages: answer.pagination.totalPages, searchMatched: undefined, problem: undefined };
}

/** Every application of one candidate that matches the filters (the server filters; a candidate has few). */
async function applicationsOf(candidateId: string, filters: Filters): Promise<Array<Schemas['ApplicationSummary']>> {
  const found: Array<Schemas['ApplicationSummary']> = [];
  let cursor: string | null = null;
  do {
    const answer: { data: Array<Schemas['ApplicationSummary']>; pagination: { nextCursor: string | null } } = await call(
      api.GET('/public/v1/applications', {
        params: { query: { ...applicationQuery(filters), candidateId, size: CANDIDATE_PAGE, ...(cursor ? { cursor } : {}) } },
      }),
    );
    found.push(...answer.data);
    cursor = answer.pagination.nextCursor;
  } while (cursor);
  return found;
}

/**
 * A search with application filters: the search's best COMBINE_LIMIT matches (by relevance), each
 * one's applications matching the filters (server-side), newest first, paged here. Exact for a
 * search that matched at most COMBINE_LIMIT candidates; otherwise `searchMatched` says how many it
 * matched, so the page can say that only the best were combined.
 */
async function searchedApplicationsPage(filters: Filters, page: number): Promise<Results> {
  const matches = await call(api.GET('/public/v1/candidates', { params: { query: { q: filters.q, size: COMBINE_LIMIT } } }));
  const found = (await Promise.all(matches.data.map((candidate) => applicationsOf(candidate.id, filters)))).flat();
  found.sort((a, b) => b.appliedAt.localeCompare(a.appliedAt) || b.id.localeCompare(a.id));
  const start = (page - 1) * PAGE_SIZE;
  const matched = matches.pagination.totalElements;
  return {
    rows: found.slice(start, start + PAGE_SIZE).map(rowOf),
    total: found.length,
    totalPages: Math.ceil(found.length / PAGE_SIZE),
    searchMatched: matched > matches.data.length ? matched : undefined,
    problem: undefined,
  };
}

export function findCandidates(filters: Filters, page: number): Promise<Results> {
  if (filters.from && filters.to && filters.to < filters.from) {
    const problem = 'The period ends before it starts: pick an “Applied until” day on or after “Applied from”.';
    return Promise.resolve({ rows: [], total: 0, totalPages: 0, searchMatched: undefined, problem });
  }
  if (!byApplication(filters)) return candidatesPage(filters, page);
  return filters.q ? searchedApplicationsPage(filters, page) : applicationsPage(filters, page);
}
