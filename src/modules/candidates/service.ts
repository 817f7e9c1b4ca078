import { randomUUID } from 'node:crypto';
import type { Placeholder, SQL } from 'drizzle-orm';
import { CHANGED_SINCE, endPage, NEWEST_FIRST, startPage, toPage, type Page } from '../../shared/pagination.ts';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { recordEvent } from '../../infra/outbox/record-event.ts';
import {
  anonymizeCandidateRow,
  BY_RELEVANCE,
  deleteCandidateRows,
  findCandidateByEmail,
  findTakenEmails,
  findCandidate,
  findCandidateSummaries,
  findCandidatesByIds,
  insertCandidateIfAbsent,
  listCandidates as listCandidateRows,
  lockForFileWords,
  prefixQuery,
  refreshFileWords,
  upsertCandidates,
  type CandidateRow,
} from './repo.ts';
import type { CandidateInput, CandidateListQuery } from './schemas.ts';

export interface CandidateSummaryView {
  id: string;
  firstName: string;
  lastName: string;
  headline: string | null;
  email: string;
  phone: string | null;
}

export interface CandidateView extends CandidateSummaryView {
  location: string | null;
  skills: string[];
  links: string[];
  source: string;
  createdAt: string;
  updatedAt: string;
}

export function toCandidateSummary(row: CandidateSummaryView): CandidateSummaryView {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    headline: row.headline,
    email: row.email,
    phone: row.phone,
  };
}

export function toCandidateView(row: CandidateRow): CandidateView {
  return {
    ...toCandidateSummary(row),
    location: row.location,
    skills: row.skills,
    links: row.links,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The candidate search's tsquery for the search text `q` (a placeholder or value of the caller's
 * statement), for another module's statement that matches it against the view
 * candidate_search_vectors (migration 0046): the same words, each a word or its start, all
 * required, as the candidates list's `q`.
 */
export function candidateSearchQuery(q: Placeholder | SQL): SQL {
  return prefixQuery(q);
}

export async function listCandidates(
  ctx: ServiceContext,
  companyId: string,
  query: CandidateListQuery,
): Promise<Page<CandidateView>> {
  const filters = { q: query.q?.trim() || undefined, updatedSince: query.updatedSince ? new Date(query.updatedSince) : undefined };
  // updatedSince is a sync: change order wins over relevance (docs/decisions.md, "Pagination").
  const ordering = filters.updatedSince ? CHANGED_SINCE : filters.q ? BY_RELEVANCE : NEWEST_FIRST;
  const position = startPage(ctx.secrets, query, 'candidates', ordering, { companyId, ...filters });
  // A search by relevance reads its total kept from before while the company's candidates' words
  // are unchanged (search-totals.ts); the statement answers the generation it counted at.
  const searchKey = ordering === BY_RELEVANCE ? filters.q : undefined;
  const known = searchKey === undefined ? undefined : ctx.candidateSearchTotals?.get(companyId, searchKey);
  const { rows: fetched, total, generation } = await listCandidateRows(ctx.db, companyId, filters, position, known);
  if (searchKey !== undefined && generation !== null) ctx.candidateSearchTotals?.set(companyId, searchKey, { generation, total });
  const { rows, ...cursors } = endPage(fetched, position, (row) =>
    ordering === CHANGED_SINCE ? [row.updatedAt, row.id] : ordering === BY_RELEVANCE ? [row.rank, row.createdAt, row.id] : [row.createdAt, row.id],
  );
  return toPage(rows.map(toCandidateView), total, position, cursors);
}

/** What an erased candidate's row holds instead of the person (the e-mail stays unique per company). */
export function anonymizedCandidateFields(id: string) {
  return {
    firstName: 'Erased',
    lastName: 'Candidate',
    email: `erased-${id}@erased.invalid`,
    phone: null,
    headline: null,
    location: null,
    skills: [] as string[],
    links: [] as string[],
  };
}

/**
 * Erases the person in the candidates table, in the caller's transaction (withTransaction): locks
 * the row and overwrites every personal field (docs/decisions.md, "Personal data"). Answers what
 * was stored before, so the caller can scrub copies elsewhere. 404 for an unknown, erased or
 * foreign id.
 */
export async function eraseCandidateRecord(ctx: ServiceContext, companyId: string, id: string, now: Date): Promise<CandidateView> {
  return withTransaction(ctx, async ({ db }) => {
    const row = await findCandidate(db, companyId, id, { lock: 'update' });
    if (!row) throw new NotFoundError('Candidate');
    await anonymizeCandidateRow(db, id, anonymizedCandidateFields(id), now);
    return toCandidateView(row);
  });
}

/** Which of these e-mail addresses already belong to candidates of the company (as stored). */
export async function takenEmails(ctx: ServiceContext, companyId: string, emails: string[]): Promise<string[]> {
  return findTakenEmails(ctx.db, companyId, emails);
}

/**
 * Deletes these candidates for good (the sample data's removal): their applications, notes and
 * files must be gone first (their owners' functions). No event. Answers how many went.
 */
export async function deleteCandidates(ctx: ServiceContext, companyId: string, ids: string[]): Promise<number> {
  return withTransaction(ctx, (tx) => deleteCandidateRows(tx.db, companyId, ids));
}

/**
 * A change of the candidate's files that can change the words search finds them by (a file's text
 * taken, a file deleted), for the documents module: `change` runs in one transaction with the
 * candidate's words taken again from the view candidate_file_texts (in the caller's transaction
 * when there is one). The candidate's row is locked first, so changes of one candidate's files take
 * their words one after the other, each reading what the one before committed, and in the order an
 * erasure locks (candidate, then files). An erased or unknown candidate: `change` runs, no words.
 */
export async function changeFileWords<T>(ctx: ServiceContext, companyId: string, candidateId: string, change: (tx: ServiceContext) => Promise<T>): Promise<T> {
  return withTransaction(ctx, async (tx) => {
    await lockForFileWords(tx.db, companyId, candidateId);
    const result = await change(tx);
    await refreshFileWords(tx.db, companyId, candidateId);
    return result;
  });
}

/**
 * The company's candidate; another company's id: 404. `lock: 'share'` (in the caller's transaction)
 * holds off an erasure until it commits, for a write that adds personal data to the candidate (a note).
 */
export async function getCandidate(ctx: ServiceContext, companyId: string, id: string, options: { lock?: 'share' } = {}): Promise<CandidateView> {
  const row = await findCandidate(ctx.db, companyId, id, options);
  if (!row) throw new NotFoundError('Candidate');
  return toCandidateView(row);
}

/**
 * The company's candidates with these ids (erased ones included, anonymized), by id, as the summary
 * embedded in applications (read from candidate_summaries, the view the applications module's own
 * statements join). Only a read: it needs only the database (inside a transaction, the
 * transaction's), so it takes only that part of the context.
 */
export async function candidateSummaries(
  ctx: Pick<ServiceContext, 'db'>,
  companyId: string,
  ids: string[],
): Promise<Map<string, CandidateSummaryView>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  return new Map((await findCandidateSummaries(ctx.db, companyId, unique)).map((row) => [row.id, toCandidateSummary(row)]));
}

async function recordCandidateCreated(ctx: ServiceContext, row: CandidateRow, now: Date): Promise<void> {
  await recordEvent(ctx.db, {
    companyId: row.companyId,
    type: 'candidate.created',
    data: { candidate: toCandidateView(row) },
    occurredAt: now,
  });
}

export interface ApplicantInput {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | undefined;
  headline?: string | undefined;
  /** http(s) links the applicant gave (the job board's form); kept only on a new candidate. */
  links?: string[] | undefined;
}

/**
 * The company's candidate with this email (compared without letter case), else a new one with a
 * candidate.created event. An existing profile is left as it is: an application does not
 * overwrite what a recruiter curated. Runs in the caller's transaction (withTransaction), the
 * application's.
 */
export async function findOrCreateCandidate(
  ctx: ServiceContext,
  companyId: string,
  input: ApplicantInput,
  source: string,
  now: Date,
): Promise<{ candidate: CandidateRow; created: boolean }> {
  return withTransaction(ctx, async (tx) => {
    const existing = await findCandidateByEmail(tx.db, companyId, input.email);
    if (existing) return { candidate: existing, created: false };
    const inserted = await insertCandidateIfAbsent(tx.db, {
      id: randomUUID(),
      companyId,
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      phone: input.phone ?? null,
      headline: input.headline ?? null,
      location: null,
      skills: [],
      links: input.links ?? [],
      source,
      createdAt: now,
      updatedAt: now,
    });
    if (inserted) {
      await recordCandidateCreated(tx, inserted, now);
      return { candidate: inserted, created: true };
    }
    // Created by a concurrent request since our read: theirs is the one.
    const raced = await findCandidateByEmail(tx.db, companyId, input.email);
    if (!raced) throw new Error('candidate vanished after an email conflict');
    return { candidate: raced, created: false };
  });
}

/** Rows that repeat an earlier row's email (without letter case) make the whole import invalid (422). */
export function assertNoDuplicateEmails(rows: CandidateInput[]): void {
  const details = duplicateEmailDetails(rows);
  if (details.length > 0) throw new ValidationError(details);
}

function duplicateEmailDetails(rows: CandidateInput[]): ErrorDetail[] {
  const firstIndex = new Map<string, number>();
  const details: ErrorDetail[] = [];
  rows.forEach((row, index) => {
    const key = row.email.toLowerCase();
    const first = firstIndex.get(key);
    if (first === undefined) firstIndex.set(key, index);
    else details.push({ field: `candidates[${index}].email`, message: `repeats the email of candidates[${first}]` });
  });
  return details;
}

/** A candidate the import wrote: its id and email, and whether it was new. */
export interface ImportedCandidate {
  id: string;
  email: string;
  inserted: boolean;
}

/**
 * Upserts up to 1,000 candidates by email, in the caller's transaction (withTransaction), with a
 * candidate.created event for each new one. The caller has checked assertNoDuplicateEmails.
 * Answers the candidates in the order of the input.
 */
export async function importCandidateRows(
  ctx: ServiceContext,
  companyId: string,
  rows: CandidateInput[],
  now: Date,
): Promise<ImportedCandidate[]> {
  return withTransaction(ctx, async (tx) => {
    const upserted = await upsertCandidates(
      tx.db,
      companyId,
      rows.map((row) => ({
        id: randomUUID(),
        firstName: row.firstName,
        lastName: row.lastName,
        email: row.email,
        phone: row.phone ?? null,
        headline: row.headline ?? null,
        location: row.location ?? null,
        skills: row.skills ?? null,
        links: row.links ?? null,
      })),
      'IMPORTED',
      now,
    );
    const byEmail = new Map(upserted.map((row) => [row.email.toLowerCase(), row]));
    const createdIds = upserted.filter((row) => row.inserted).map((row) => row.id);
    for (const row of await findCandidatesByIds(tx.db, companyId, createdIds)) await recordCandidateCreated(tx, row, now);
    return rows.map((row) => {
      const candidate = byEmail.get(row.email.toLowerCase())!;
      return { id: candidate.id, email: candidate.email, inserted: candidate.inserted };
    });
  });
}
