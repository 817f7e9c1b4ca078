import { and, count, desc, eq, gte, inArray, sql, type SQL } from 'drizzle-orm';
import { queryStatement, type Db } from '../../db/client.ts';
import { selectList } from '../../db/select-list.ts';
import { eventInsertText } from '../../infra/outbox/record-event.ts';
import type { CandidateSummaryView } from '../candidates/service.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import { applications, applicationStatusHistory } from './tables.ts';

export type ApplicationRow = typeof applications.$inferSelect;
export type StatusHistoryRow = typeof applicationStatusHistory.$inferSelect;

export async function findApplication(db: Db, companyId: string, id: string): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.companyId, companyId), eq(applications.id, id)))
    .limit(1);
  return row;
}

/**
 * The company's application, its row version (`xmin`, changed by every update of the row: a status
 * move decided on this read is written only if the row is still this version) and its candidate's
 * summary, in one fixed statement prepared once per connection (a status move's first read; the
 * query builder cost more than running it).
 */
export async function findApplicationVersion(
  db: Db,
  companyId: string,
  id: string,
): Promise<{ row: ApplicationRow; version: string; candidate: CandidateSummaryView | undefined } | undefined> {
  const [found] = await queryStatement<ApplicationRow & { version: string } & CandidateColumns>(db, APPLICATION_VERSION, [companyId, id]);
  if (!found) return undefined;
  const { version, cFirstName: _f, cLastName: _l, cHeadline: _h, cEmail: _e, cPhone: _p, ...row } = found;
  return { row, version, candidate: candidateSummaryOf(found) };
}

/** A candidate's summary, selected beside an application as CANDIDATE_COLUMNS names it (null when there is none). */
interface CandidateColumns {
  cFirstName: string;
  cLastName: string;
  cHeadline: string | null;
  cEmail: string | null;
  cPhone: string | null;
}

/** The summary columns of the candidate `c`, as CandidateColumns names them. */
const CANDIDATE_COLUMNS = `c.first_name as "cFirstName", c.last_name as "cLastName", c.headline as "cHeadline", c.email as "cEmail", c.phone as "cPhone"`;

/** The candidate's summary from its columns beside the application; undefined when it has none. */
function candidateSummaryOf(row: CandidateColumns & { candidateId: string }): CandidateSummaryView | undefined {
  if (row.cEmail === null) return undefined;
  return { id: row.candidateId, firstName: row.cFirstName, lastName: row.cLastName, headline: row.cHeadline, email: row.cEmail, phone: row.cPhone };
}

/** findApplicationVersion's statement: $1 the company, $2 the application. */
const APPLICATION_VERSION = `select ${selectList(applications, 'a')}, a.xmin::text as version, ${CANDIDATE_COLUMNS}
  from applications a left join candidates c on c.id = a.candidate_id and c.company_id = $1
  where a.company_id = $1 and a.id = $2`;

/** moveApplicationIfVersion's statement: $1-$9 the move and its history row, the outbox event's parameters from $10. */
const MOVE_IF_VERSION = `
      WITH moved AS (
        UPDATE applications SET status = $1, updated_at = $2::timestamptz
        WHERE id = $3::uuid AND company_id = $4::uuid AND xmin = $5::xid
        RETURNING id
      ),
      history AS (
        INSERT INTO application_status_history (id, company_id, application_id, from_status, to_status, reason, api_key_id, changed_at)
        SELECT $6::uuid, $4::uuid, id, $7, $1, $8, $9::uuid, $2::timestamptz
        FROM moved
      ),
      event AS (${eventInsertText('moved', 10)})
      SELECT count(*)::int AS moved FROM moved`;

/**
 * A status move in one statement (no transaction around it: one statement is atomic): the row is
 * moved only if it is still the version read, and then its history row and its outbox event
 * (`eventValues`: eventInsertValues of the event) are written too; else nothing is. The UPDATE
 * takes the row lock; a concurrent move that commits first changes the version, so this one then
 * changes nothing (false) and the caller reads again. The kept counts are written by the row's
 * update trigger in the same statement. A fixed text, prepared once per connection (queryStatement).
 */
export async function moveApplicationIfVersion(
  db: Db,
  input: { version: string; history: StatusHistoryRow; eventValues: unknown[] },
): Promise<boolean> {
  const h = input.history;
  const values = [h.toStatus, h.changedAt.toISOString(), h.applicationId, h.companyId, input.version, h.id, h.fromStatus, h.reason, h.apiKeyId];
  const rows = await queryStatement<{ moved: number }>(db, MOVE_IF_VERSION, [...values, ...input.eventValues]);
  return rows[0]?.moved === 1;
}

/** The company's application, row-locked until the transaction ends: status moves serialize on it. */
export async function lockApplication(db: Db, companyId: string, id: string): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .select()
    .from(applications)
    .where(and(eq(applications.companyId, companyId), eq(applications.id, id)))
    .limit(1)
    .for('update');
  return row;
}

/**
 * Moves the application only if it is still in `from`, so a move decided on a stale read changes
 * nothing (undefined): with concurrent movers exactly one wins.
 */
export async function updateApplicationStatus(
  db: Db,
  id: string,
  from: string,
  to: string,
  now: Date,
): Promise<ApplicationRow | undefined> {
  const [row] = await db
    .update(applications)
    .set({ status: to, updatedAt: now })
    .where(and(eq(applications.id, id), eq(applications.status, from)))
    .returning();
  return row;
}

/** Inserts the rows whose candidate has not applied to the listing yet; answers the rows inserted. */
export async function insertApplicationsIfAbsent(db: Db, rows: ApplicationRow[]): Promise<ApplicationRow[]> {
  if (rows.length === 0) return [];
  return db
    .insert(applications)
    .values(rows)
    .onConflictDoNothing({ target: [applications.jobListingId, applications.candidateId] })
    .returning();
}

export async function findApplicationsOfListing(
  db: Db,
  companyId: string,
  jobListingId: string,
  candidateIds: string[],
): Promise<ApplicationRow[]> {
  if (candidateIds.length === 0) return [];
  return db
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.companyId, companyId),
        eq(applications.jobListingId, jobListingId),
        inArray(applications.candidateId, candidateIds),
      ),
    );
}

export async function insertStatusHistory(db: Db, rows: StatusHistoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(applicationStatusHistory).values(rows);
}

export interface ApplicationFilters {
  jobListingId?: string | undefined;
  statuses?: string[] | undefined;
  candidateId?: string | undefined;
  updatedSince?: Date | undefined;
}

/**
 * From this offset on, an offset page starts from the day it falls in: the kept per-day counts
 * (migration 0015) say on which UTC day of submission the offset falls and how many newer rows
 * come before that day, so the (company, applied_at, id) index is entered at that day's end and
 * walked only within it. Counts and rows come from one statement, one snapshot: the page is
 * exactly the one a plain OFFSET gives. Past the end no day is found: no rows. The day's end bound
 * is a scalar subquery so it enters the index condition (NULL past the end: no rows).
 */
const DEEP_OFFSET = 2_000;

const APPLICATION_COLUMNS = selectList(applications);

/** An application of a list page with its candidate's summary, read in the same statement. */
export type ApplicationWithCandidateRow = ApplicationRow & { candidate: CandidateSummaryView };

type NewestPageRow = ApplicationRow & CandidateColumns & { total: number; id: string | null };

/**
 * A newest-first page (unfiltered or by status), its kept total and each application's candidate
 * summary in one statement: one round trip and one snapshot, with a fixed text per shape so
 * PostgreSQL prepares it once. The total comes as a row of its own (a left join), so a page past
 * the end still answers it. Deep pages find their ids as deepPageIds does. Parameters: $1 company,
 * $2 limit, $3 offset, then the statuses ($4) and the cursor's keys when the shape has them.
 */
function newestPageStatement(filtered: boolean, shape: 'offset' | 'keyset' | 'deep'): string {
  const status = filtered ? 'and status = any($4::text[])' : '';
  const next = filtered ? 5 : 4;
  const rows =
    shape === 'deep'
      ? `select ${APPLICATION_COLUMNS} from applications where id in (
           with days as (
             select day, sum(n) as n from application_daily_counts where company_id = $1 ${status}
             group by day having sum(n) <> 0
           ), target as (
             select day, before from (select day, n, sum(n) over (order by day desc) - n as before from days) c
             where before <= $3::bigint and before + n > $3::bigint
           )
           select a.id from applications a
           where a.company_id = $1 ${status.replace('status', 'a.status')}
             and a.applied_at < (select (day + 1)::timestamp at time zone 'UTC' from target)
           order by a.applied_at desc, a.id desc
           offset (select $3::bigint - before from target) limit $2)`
      : `select ${APPLICATION_COLUMNS} from applications where company_id = $1 ${status}
           ${shape === 'keyset' ? `and (applied_at, id) < ($${next}::timestamptz, $${next + 1}::uuid)` : ''}
           order by applied_at desc, id desc limit $2 offset $3`;
  // Each candidate is looked up by its id (a lateral subquery, kept one by its `limit 1`): as a
  // plain join, a plan made without knowing the page's limit (planned once, the limit is a
  // parameter) read every candidate of the company and hashed them (40 ms instead of 0.2).
  return `select t.total, p.*, c.* from
    (select coalesce(sum(n), 0)::int as total from company_counts
     where company_id = $1 and resource = 'applications' ${status}) t
    left join lateral (${rows}) p on true
    left join lateral (select ${CANDIDATE_COLUMNS} from candidates c where c.id = p."candidateId" and c.company_id = $1 limit 1) c on true
    order by p."appliedAt" desc, p.id desc`;
}
const NEWEST_PAGE = new Map(
  [false, true].flatMap((filtered) =>
    (['offset', 'keyset', 'deep'] as const).map((shape) => [`${filtered}:${shape}`, newestPageStatement(filtered, shape)] as const),
  ),
);

async function newestPage(
  db: Db,
  companyId: string,
  statuses: string[] | undefined,
  page: PagePosition,
): Promise<{ rows: ApplicationWithCandidateRow[]; total: number }> {
  const filtered = Boolean(statuses && statuses.length > 0);
  const shape = page.after ? 'keyset' : page.offset >= DEEP_OFFSET ? 'deep' : 'offset';
  const values: unknown[] = [companyId, page.limit, page.offset];
  if (filtered) values.push(statuses);
  if (page.after) values.push(...page.after);
  // The best plan of a deep page (the day it starts from) or of a status filter (how common the
  // statuses are) depends on the values: those are planned each time.
  const planOnce = !filtered && shape !== 'deep';
  const found = await queryStatement<NewestPageRow>(db, NEWEST_PAGE.get(`${filtered}:${shape}`)!, values, { planOnce });
  if (found[0].id === null) return { rows: [], total: found[0].total };
  // Each row built as one literal (a rest pattern copies every column, then a spread copies again).
  const rows = found.map((row): ApplicationWithCandidateRow => {
    const candidate = candidateSummaryOf(row);
    if (!candidate) throw new Error(`application ${row.id} has no candidate ${row.candidateId}`);
    return {
      id: row.id!,
      companyId: row.companyId,
      jobListingId: row.jobListingId,
      candidateId: row.candidateId,
      status: row.status,
      source: row.source,
      coverLetter: row.coverLetter,
      appliedAt: row.appliedAt,
      updatedAt: row.updatedAt,
      candidate,
    };
  });
  return { rows, total: found[0].total };
}

export async function listApplications(
  db: Db,
  companyId: string,
  filters: ApplicationFilters,
  page: PagePosition,
): Promise<{ rows: Array<ApplicationRow | ApplicationWithCandidateRow>; total: number }> {
  // Newest first, unfiltered or by status: the one-statement page (the candidates come with it).
  if (!filters.jobListingId && !filters.candidateId && !filters.updatedSince && !page.ordering.sync) {
    return newestPage(db, companyId, filters.statuses, page);
  }
  const sortKeys = page.ordering.sync ? [applications.updatedAt, applications.id] : [applications.appliedAt, applications.id];
  const conditions: SQL[] = [eq(applications.companyId, companyId)];
  if (filters.jobListingId) conditions.push(eq(applications.jobListingId, filters.jobListingId));
  if (filters.candidateId) conditions.push(eq(applications.candidateId, filters.candidateId));
  if (filters.statuses && filters.statuses.length > 0) conditions.push(inArray(applications.status, filters.statuses));
  if (filters.updatedSince) conditions.push(gte(applications.updatedAt, filters.updatedSince));
  const where = and(...conditions);
  // Filtered by listing or candidate, or a sync: counted through their indexes.
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(applications)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: count() })
      .from(applications)
      .where(where)
      .then(([row]) => row.total),
  ]);
  return { rows, total };
}

/** The submission (no fromStatus) sorts before the moves of the same millisecond. */
const historyIsMove = sql`(${applicationStatusHistory.fromStatus} is not null)`;

export async function listStatusHistory(
  db: Db,
  companyId: string,
  applicationId: string,
  page: PagePosition,
): Promise<{ rows: StatusHistoryRow[]; total: number }> {
  // Newest first; a move made in the same millisecond as the submission still sorts after it.
  const sortKeys = [applicationStatusHistory.changedAt, historyIsMove, applicationStatusHistory.id];
  const where = and(eq(applicationStatusHistory.companyId, companyId), eq(applicationStatusHistory.applicationId, applicationId));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(applicationStatusHistory)
      .where(and(where, keysetAfter(sortKeys, page)))
      .orderBy(...keysetOrderBy(sortKeys, page))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(applicationStatusHistory).where(where),
  ]);
  return { rows, total };
}

export async function listApplicationsOfCandidate(db: Db, companyId: string, candidateId: string): Promise<ApplicationRow[]> {
  return db
    .select()
    .from(applications)
    .where(and(eq(applications.companyId, companyId), eq(applications.candidateId, candidateId)))
    .orderBy(desc(applications.appliedAt), desc(applications.id));
}

/** Erasure: empties the free texts a person wrote or that were written about them; answers the application ids. */
export async function clearPersonalTexts(db: Db, companyId: string, candidateId: string, now: Date): Promise<string[]> {
  const rows = await db
    .update(applications)
    .set({ coverLetter: null, updatedAt: now })
    .where(and(eq(applications.companyId, companyId), eq(applications.candidateId, candidateId)))
    .returning({ id: applications.id });
  const ids = rows.map((row) => row.id);
  if (ids.length > 0) {
    await db
      .update(applicationStatusHistory)
      .set({ reason: null })
      .where(and(eq(applicationStatusHistory.companyId, companyId), inArray(applicationStatusHistory.applicationId, ids)));
  }
  return ids;
}

/** Every history row of these applications, oldest first. */
export async function listHistoryOfApplications(db: Db, companyId: string, applicationIds: string[]): Promise<StatusHistoryRow[]> {
  if (applicationIds.length === 0) return [];
  return db
    .select()
    .from(applicationStatusHistory)
    .where(and(eq(applicationStatusHistory.companyId, companyId), inArray(applicationStatusHistory.applicationId, applicationIds)))
    .orderBy(applicationStatusHistory.changedAt, applicationStatusHistory.id);
}
