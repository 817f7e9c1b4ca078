// The candidate list across every listing, with its filters. The API lists candidates with a text
// search (`q`) and applications with a listing and stages; it has no source or applied-date filter,
// and neither list combines the text search with the application filters. So: without an
// application filter the list is the candidates' own (paged by the server); with one it is the
// applications' (listing and stages filtered by the server, newest first), filtered here by source
// and applied date, intersected with the text search's best matches, and paged here. That scan is
// bounded (SCAN_LIMIT applications, SEARCH_LIMIT matches) and says so when it stops short.
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
  /** The scan stopped before the end: the applications matched among the newest SCAN_LIMIT only. */
  partial: 'scan' | 'search' | undefined;
}

export const PAGE_SIZE = 20;
const SCAN_PAGE = 100;
export const SCAN_LIMIT = 2_000;
export const SEARCH_LIMIT = 100;

export const byApplication = (filters: Filters) =>
  filters.stages.length > 0 || filters.listing !== null || filters.source !== null || filters.from !== null || filters.to !== null;

const dayStart = (day: string) => new Date(`${day}T00:00:00`).getTime();
const dayEnd = (day: string) => new Date(`${day}T23:59:59.999`).getTime();

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
    partial: undefined,
  };
}

/** The ids of the text search's best matches (the API orders them by relevance). */
async function searchMatches(q: string): Promise<{ ids: Set<string>; more: boolean }> {
  const answer = await call(api.GET('/public/v1/candidates', { params: { query: { q, size: SEARCH_LIMIT } } }));
  return { ids: new Set(answer.data.map((candidate) => candidate.id)), more: answer.pagination.totalElements > answer.data.length };
}

async function applicationsPage(filters: Filters, page: number): Promise<Results> {
  const matches = filters.q ? await searchMatches(filters.q) : undefined;
  const from = filters.from ? dayStart(filters.from) : -Infinity;
  const to = filters.to ? dayEnd(filters.to) : Infinity;
  const found: Array<Schemas['ApplicationSummary']> = [];
  let cursor: string | null = null;
  let scanned = 0;
  let stoppedShort = false;
  for (;;) {
    const answer: { data: Array<Schemas['ApplicationSummary']>; pagination: { nextCursor: string | null } } = await call(
      api.GET('/public/v1/applications', {
        params: {
          query: {
            size: SCAN_PAGE,
            ...(filters.listing ? { jobListingId: filters.listing } : {}),
            ...(filters.stages.length > 0 ? { status: filters.stages } : {}),
            ...(cursor ? { cursor } : {}),
          },
        },
      }),
    );
    scanned += answer.data.length;
    let older = false;
    for (const application of answer.data) {
      const applied = new Date(application.appliedAt).getTime();
      // Newest first: past the start of the period nothing further can match.
      if (applied < from) {
        older = true;
        break;
      }
      if (applied > to) continue;
      if (filters.source && application.source !== filters.source) continue;
      if (matches && !matches.ids.has(application.jobSeekerId)) continue;
      found.push(application);
    }
    cursor = answer.pagination.nextCursor;
    if (older || !cursor) break;
    if (scanned >= SCAN_LIMIT) {
      stoppedShort = true;
      break;
    }
  }
  const start = (page - 1) * PAGE_SIZE;
  return {
    rows: found.slice(start, start + PAGE_SIZE).map((application) => ({
      key: application.id,
      candidateId: application.jobSeekerId,
      name: `${application.candidate.firstName} ${application.candidate.lastName}`,
      email: application.candidate.email,
      application: { jobListingId: application.jobListingId, status: application.status, source: application.source, appliedAt: application.appliedAt },
    })),
    total: found.length,
    totalPages: Math.max(1, Math.ceil(found.length / PAGE_SIZE)),
    partial: stoppedShort ? 'scan' : matches?.more ? 'search' : undefined,
  };
}

export function findCandidates(filters: Filters, page: number): Promise<Results> {
  return byApplication(filters) ? applicationsPage(filters, page) : candidatesPage(filters, page);
}
