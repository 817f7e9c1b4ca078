// Every figure is one SQL aggregate: nothing loads application rows into memory, so the overview
// costs the same few queries for ten applications or ten million. Analytics owns no table: it reads
// the views the applications and job-listings modules publish (migration 0033, documented in their
// READMEs) and, for a whole company, the kept counts through src/infra/kept-counts/read.ts.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, queryStatement, type Db } from '../../db/client.ts';
import { flagsKey, PageStatements, placeholderOf } from '../../db/page-statements.ts';
import { FUNNEL_STAGES } from '../applications/stages.ts';

export interface ApplicationScope {
  companyId: string;
  jobListingId?: string | undefined;
  /** appliedAt >= from */
  from?: Date | undefined;
  /** appliedAt < until */
  until?: Date | undefined;
}

/** A scope's values as a statement binds them, and which of them are given (its shape). */
interface ScopeValues {
  companyId: string;
  jobListingId: string;
  from: string;
  until: string;
}
const SCOPE_FLAGS = ['jobListingId', 'from', 'until'] as const;
type ScopeShape = Record<(typeof SCOPE_FLAGS)[number], boolean>;
const scopeValue = placeholderOf<ScopeValues>();

function shapeOf(scope: ApplicationScope): ScopeShape {
  return { jobListingId: scope.jobListingId !== undefined, from: scope.from !== undefined, until: scope.until !== undefined };
}

function valuesOf(scope: ApplicationScope): Partial<ScopeValues> {
  return { companyId: scope.companyId, jobListingId: scope.jobListingId, from: scope.from?.toISOString(), until: scope.until?.toISOString() };
}

/**
 * The WHERE clause selecting the applications (alias a) the figures are about, each value given by
 * `value`: the value itself, or a placeholder of a statement built once per shape.
 */
function conditionsOf(shape: ScopeShape, value: (name: keyof ScopeValues) => unknown): SQL {
  const conditions: SQL[] = [sql`a.company_id = ${value('companyId')}`];
  if (shape.jobListingId) conditions.push(sql`a.job_listing_id = ${value('jobListingId')}`);
  if (shape.from) conditions.push(sql`a.applied_at >= ${value('from')}::timestamptz`);
  if (shape.until) conditions.push(sql`a.applied_at < ${value('until')}::timestamptz`);
  return sql.join(conditions, sql` and `);
}

function applicationsIn(scope: ApplicationScope): SQL {
  const values = valuesOf(scope);
  return conditionsOf(shapeOf(scope), (name) => values[name]);
}

export async function countListingsByStatus(
  db: Db,
  companyId: string,
  jobListingId: string | undefined,
): Promise<Array<{ status: string; count: number }>> {
  return queryRows(
    db,
    sql`select status, count(*)::int as count from job_listing_statuses
        where company_id = ${companyId} ${jobListingId ? sql`and id = ${jobListingId}` : sql``}
        group by status`,
  );
}

export async function countApplicationsByStage(db: Db, scope: ApplicationScope): Promise<Array<{ status: string; count: number }>> {
  return queryRows(db, sql`select a.status, count(*)::int as count from application_summaries a where ${applicationsIn(scope)} group by a.status`);
}

/** Submissions per UTC day from firstDay to lastDay (YYYY-MM-DD, both included), zero days included. */
export async function countApplicationsPerDay(
  db: Db,
  scope: ApplicationScope,
  firstDay: string,
  lastDay: string,
): Promise<Array<{ date: string; count: number }>> {
  return queryRows(
    db,
    sql`with days as (
          select generate_series(${firstDay}::date, ${lastDay}::date, interval '1 day')::date as day
        ), counts as (
          select (a.applied_at at time zone 'UTC')::date as day, count(*)::int as n
          from application_summaries a
          where ${applicationsIn(scope)}
            and a.applied_at >= (${firstDay}::date)::timestamp at time zone 'UTC'
            and a.applied_at < (${lastDay}::date + 1)::timestamp at time zone 'UTC'
          group by 1
        )
        select to_char(days.day, 'YYYY-MM-DD') as date, coalesce(counts.n, 0)::int as count
        from days left join counts on counts.day = days.day
        order by days.day`,
  );
}

/**
 * How many applications reached each funnel stage: an application counts for every stage up to
 * the furthest one its history ever entered (skipping a stage still passes it; a later rejection
 * does not undo it).
 */
export async function countFunnel(db: Db, scope: ApplicationScope): Promise<number[]> {
  const rank = sql.raw(
    `case h.to_status ${FUNNEL_STAGES.map((stage, index) => `when '${stage}' then ${index}`).join(' ')} end`,
  );
  const columns = sql.raw(
    FUNNEL_STAGES.map((_, index) => `count(*) filter (where furthest >= ${index})::int as s${index}`).join(', '),
  );
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`with furthest as (
          select max(${rank}) as furthest
          from application_summaries a
          join application_stage_moves h on h.application_id = a.id
          where ${applicationsIn(scope)}
          group by a.id
        )
        select ${columns} from furthest`,
  );
  return FUNNEL_STAGES.map((_, index) => row[`s${index}`]);
}

/** Hires (applications now HIRED) and the median days from submission to their move into HIRED. */
export async function timeToHire(db: Db, scope: ApplicationScope): Promise<{ hires: number; medianDays: number | null }> {
  const [row] = await queryRows<{ hires: number; median_days: number | null }>(
    db,
    sql`with hired as (
          select a.applied_at, max(h.changed_at) as hired_at
          from application_summaries a
          join application_stage_moves h on h.application_id = a.id and h.to_status = 'HIRED'
          where ${applicationsIn(scope)} and a.status = 'HIRED'
          group by a.id, a.applied_at
        )
        select count(*)::int as hires,
               percentile_cont(0.5) within group (order by (extract(epoch from hired_at - applied_at) / 86400)::float8)::float8 as median_days
        from hired`,
  );
  return { hires: row.hires, medianDays: row.median_days === null ? null : Number(row.median_days) };
}

/**
 * Applications now REJECTED or WITHDRAWN with a rejection reason, by that reason (the one the move
 * into their stage gave): only those rows, from the partial index on (company, reason, applied_at)
 * (migration 0036) when the whole company is counted. Asked by every overview, so a fixed text
 * per shape (which of the scope's bounds are given), prepared once per connection as the kept
 * figures beside it are: its plan (through the view) took ~0.6 ms, its run ~0.03 ms.
 */
const REJECTIONS_BY_REASON = new PageStatements<ScopeShape, ScopeValues>(
  flagsKey(SCOPE_FLAGS),
  (shape) => sql`select a.rejection_reason_id as "reasonId", count(*)::int as count from application_summaries a
    where ${conditionsOf(shape, scopeValue)} and a.rejection_reason_id is not null
    group by a.rejection_reason_id`,
);

export async function countRejectionsByReason(db: Db, scope: ApplicationScope): Promise<Array<{ reasonId: string; count: number }>> {
  const statement = REJECTIONS_BY_REASON.bind(shapeOf(scope), valuesOf(scope));
  return queryStatement(db, statement.text, statement.values);
}

/** Applications by source (only sources with any), for one listing's overview. */
export async function countApplicationsBySource(db: Db, scope: ApplicationScope): Promise<Array<{ source: string; count: number }>> {
  return queryRows(db, sql`select a.source, count(*)::int as count from application_summaries a where ${applicationsIn(scope)} group by a.source`);
}

/** Which of these ids are the company's listings (another company's and unknown ids are left out). */
export async function companyListingIds(db: Db, companyId: string, ids: readonly string[]): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from job_listing_statuses where company_id = ${companyId} and id = any(${sql.param([...ids])}::uuid[])`,
  );
  return rows.map((row) => row.id);
}

/**
 * Per listing, its applications submitted at or after `since`, counted up to `cap`: each count
 * reads at most `cap` entries of the (company_id, job_listing_id, applied_at) index, so the answer
 * is bounded however many arrived.
 */
export async function countApplicationsSince(
  db: Db,
  companyId: string,
  listingIds: readonly string[],
  since: Date,
  cap: number,
): Promise<Array<{ jobListingId: string; count: number }>> {
  if (listingIds.length === 0) return [];
  return queryRows(
    db,
    sql`select l.id as "jobListingId", (
          select count(*)::int from (
            select 1 from application_summaries a
            where a.company_id = ${companyId} and a.job_listing_id = l.id and a.applied_at >= ${since.toISOString()}::timestamptz
            limit ${cap}
          ) recent
        ) as count
        from unnest(${sql.param([...listingIds])}::uuid[]) as l(id)`,
  );
}
