import { randomUUID } from 'node:crypto';
import { transactionWithOneRetry, type Db } from '../../db/client.ts';
import { limitOffset, toPage, type Page } from '../../http/pagination.ts';
import type { Principal, ServiceContext } from '../../shared/context.ts';
import { NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { recordEvent } from '../outbox/record-event.ts';
import { addCandidatesToPipeline, assertListingAcceptsApplications } from '../applications/pipeline.ts';
import { listApplicationsOfCandidate } from '../applications/repo.ts';
import type { ApplicationStage } from '../applications/stages.ts';
import {
  findCandidateByEmail,
  findCandidate,
  findCandidatesByIds,
  insertCandidateIfAbsent,
  listCandidates as listCandidateRows,
  upsertCandidates,
  type CandidateRow,
} from './repo.ts';
import type { CandidateInput, CandidateListQuery, ImportCandidatesBody } from './schemas.ts';

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

export interface CandidateProfileView extends CandidateView {
  applications: Array<{
    id: string;
    jobListingId: string;
    status: ApplicationStage;
    source: string;
    appliedAt: string;
    updatedAt: string;
  }>;
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

export async function listCandidates(
  ctx: ServiceContext,
  companyId: string,
  query: CandidateListQuery,
): Promise<Page<CandidateView>> {
  const { rows, total } = await listCandidateRows(
    ctx.db,
    companyId,
    { q: query.q?.trim() || undefined, updatedSince: query.updatedSince ? new Date(query.updatedSince) : undefined },
    limitOffset(query),
  );
  return toPage(rows.map(toCandidateView), total, query);
}

export async function getCandidateProfile(ctx: ServiceContext, companyId: string, id: string): Promise<CandidateProfileView> {
  const row = await findCandidate(ctx.db, companyId, id);
  if (!row) throw new NotFoundError('Candidate');
  const applications = await listApplicationsOfCandidate(ctx.db, companyId, id);
  return {
    ...toCandidateView(row),
    applications: applications.map((application) => ({
      id: application.id,
      jobListingId: application.jobListingId,
      status: application.status as ApplicationStage,
      source: application.source,
      appliedAt: application.appliedAt.toISOString(),
      updatedAt: application.updatedAt.toISOString(),
    })),
  };
}

async function recordCandidateCreated(tx: Db, row: CandidateRow, now: Date): Promise<void> {
  await recordEvent(tx, {
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
}

/**
 * The company's candidate with this email (compared without letter case), else a new one with a
 * candidate.created event. An existing profile is left as it is: an application does not
 * overwrite what a recruiter curated. Call inside the transaction of the application.
 */
export async function findOrCreateCandidate(
  tx: Db,
  companyId: string,
  input: ApplicantInput,
  source: string,
  now: Date,
): Promise<{ candidate: CandidateRow; created: boolean }> {
  const existing = await findCandidateByEmail(tx, companyId, input.email);
  if (existing) return { candidate: existing, created: false };
  const inserted = await insertCandidateIfAbsent(tx, {
    id: randomUUID(),
    companyId,
    firstName: input.firstName,
    lastName: input.lastName,
    email: input.email,
    phone: input.phone ?? null,
    headline: input.headline ?? null,
    location: null,
    skills: [],
    links: [],
    source,
    createdAt: now,
    updatedAt: now,
  });
  if (inserted) {
    await recordCandidateCreated(tx, inserted, now);
    return { candidate: inserted, created: true };
  }
  // Created by a concurrent request since our read: theirs is the one.
  const raced = await findCandidateByEmail(tx, companyId, input.email);
  if (!raced) throw new Error('candidate vanished after an email conflict');
  return { candidate: raced, created: false };
}

/** Rows that repeat an earlier row's email (without letter case) make the whole import invalid. */
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

export interface ImportRowResult {
  index: number;
  candidateId: string;
  email: string;
  result: 'created' | 'updated';
  applicationId: string | null;
  applicationResult: 'created' | 'existing' | null;
}

export interface ImportResultView {
  created: number;
  updated: number;
  applicationsCreated: number;
  results: ImportRowResult[];
}

/**
 * Upserts up to 1,000 candidates by email in one transaction: every row is validated first (the
 * schema, then duplicates within the request), so one bad row writes nothing. With jobListingId
 * each candidate also enters that listing's pipeline (source IMPORTED) unless already in it.
 */
export async function importCandidates(
  ctx: ServiceContext,
  principal: Principal,
  body: ImportCandidatesBody,
): Promise<ImportResultView> {
  const duplicates = duplicateEmailDetails(body.candidates);
  if (duplicates.length > 0) throw new ValidationError(duplicates);
  const { companyId } = principal;
  const now = ctx.clock.now();

  // Rows are written in a fixed order (see upsertCandidates), so overlapping imports should not
  // deadlock; if PostgreSQL still aborts one (deadlock or serialization failure), it runs once more.
  return transactionWithOneRetry(ctx.db, async (tx) => {
    if (body.jobListingId) await assertListingAcceptsApplications(tx, companyId, body.jobListingId);

    const upserted = await upsertCandidates(
      tx,
      companyId,
      body.candidates.map((row) => ({
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
    for (const row of await findCandidatesByIds(tx, companyId, createdIds)) await recordCandidateCreated(tx, row, now);

    const candidateIds = body.candidates.map((row) => byEmail.get(row.email.toLowerCase())!.id);
    const pipeline = body.jobListingId
      ? await addCandidatesToPipeline(tx, {
          companyId,
          jobListingId: body.jobListingId,
          candidateIds,
          source: 'IMPORTED',
          apiKeyId: principal.apiKeyId,
          now,
        })
      : undefined;

    const results = body.candidates.map((row, index): ImportRowResult => {
      const candidate = byEmail.get(row.email.toLowerCase())!;
      const application = pipeline?.get(candidate.id);
      return {
        index,
        candidateId: candidate.id,
        email: candidate.email,
        result: candidate.inserted ? 'created' : 'updated',
        applicationId: application?.id ?? null,
        applicationResult: application ? (application.created ? 'created' : 'existing') : null,
      };
    });
    return {
      created: createdIds.length,
      updated: upserted.length - createdIds.length,
      applicationsCreated: results.filter((row) => row.applicationResult === 'created').length,
      results,
    };
  });
}
