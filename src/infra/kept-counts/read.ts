// Totals read from the kept counts (migration 0015): per company, resource and status, appended
// as signed deltas by triggers in the same transaction as every change, so a total (the sum of a
// key's few rows) is exact without counting the resource's rows. The one place that reads
// company_counts: a module answers its totals through these functions.
import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

/**
 * 'candidate_search_changes' counts changes, not rows: one per statement that changed what a
 * company's candidate searches can match (migration 0039), the candidates' search generation.
 */
export type CountedResource = 'job_listings' | 'applications' | 'candidates' | 'candidate_search_changes';

export interface CountSelection {
  /** Only these statuses (none given: every status); a placeholder stands for a text[] bound later. */
  statuses?: readonly string[] | Placeholder | undefined;
  /** Every status but these. */
  exceptStatuses?: readonly string[] | undefined;
}

/**
 * The total as a scalar subquery, for a module's statement that answers a page and its total in
 * one (one round trip, one snapshot). `companyId` is a value or a placeholder of a statement built
 * once and bound when it runs.
 */
export function keptCountQuery(companyId: string | Placeholder, resource: CountedResource, selection: CountSelection = {}): SQL {
  const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);
  const { statuses, exceptStatuses } = selection;
  const only = statuses instanceof Placeholder
    ? sql`and status = any(${statuses}::text[])`
    : statuses && statuses.length > 0
      ? sql`and status in (${list(statuses)})`
      : sql``;
  const except = exceptStatuses && exceptStatuses.length > 0 ? sql`and status not in (${list(exceptStatuses)})` : sql``;
  return sql`(select coalesce(sum(n), 0)::int from company_counts
    where company_id = ${companyId} and resource = ${resource} ${only} ${except})`;
}

/** How many rows of a resource the company has (in the given statuses). */
export async function keptCount(db: Db, companyId: string, resource: CountedResource, selection: CountSelection = {}): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select ${keptCountQuery(companyId, resource, selection)} as n`);
  return row.n;
}

/** A resource's kept counts by status, for the overview. */
export async function keptCountsByStatus(db: Db, companyId: string, resource: CountedResource): Promise<Array<{ status: string; count: number }>> {
  return queryRows(
    db,
    sql`select status, sum(n)::int as count from company_counts where company_id = ${companyId} and resource = ${resource}
        group by status having sum(n) <> 0`,
  );
}

// --- the applications' kept aggregates (migration 0015), for the analytics overview --------------
// application_daily_counts (deltas per company, UTC day of submission, status and furthest funnel
// stage) and application_hires (one row per current hire), which triggers keep in the same
// transaction as every change: a whole company's figures from a few thousand rows whatever the
// number of applications.

export interface DayRange {
  /** First UTC day included (YYYY-MM-DD), if any. */
  fromDay?: string | undefined;
  /** Last UTC day included (YYYY-MM-DD), if any. */
  toDay?: string | undefined;
}

function dayConditions(range: DayRange): SQL {
  const conditions: SQL[] = [];
  if (range.fromDay) conditions.push(sql`and day >= ${range.fromDay}::date`);
  if (range.toDay) conditions.push(sql`and day <= ${range.toDay}::date`);
  return sql.join(conditions, sql` `);
}

/** Applications by current stage and furthest funnel stage (index into FUNNEL_STAGES), submitted within the range. */
export async function keptStageCounts(
  db: Db,
  companyId: string,
  range: DayRange,
): Promise<Array<{ status: string; furthest: number; count: number }>> {
  return queryRows(
    db,
    sql`select status, furthest_stage::int as furthest, sum(n)::int as count from application_daily_counts
        where company_id = ${companyId} ${dayConditions(range)}
        group by status, furthest_stage having sum(n) <> 0`,
  );
}

/** Submissions per UTC day within the range (days without any left out). */
export async function keptDailyCounts(db: Db, companyId: string, range: DayRange): Promise<Array<{ date: string; count: number }>> {
  return queryRows(
    db,
    sql`select to_char(day, 'YYYY-MM-DD') as date, sum(n)::int as count from application_daily_counts
        where company_id = ${companyId} ${dayConditions(range)}
        group by day having sum(n) <> 0`,
  );
}

/**
 * The median days to hire of the company's current hires. Without a date range the middle one or
 * two are read from the (company_id, days) index at an offset (hires known from the kept count);
 * interpolated as percentile_cont(0.5) does, so the result is the same number.
 */
export async function keptMedianDaysToHire(db: Db, companyId: string, hires: number): Promise<number | null> {
  if (hires === 0) return null;
  const rows = await queryRows<{ days: number }>(
    db,
    sql`select days from application_hires where company_id = ${companyId}
        order by days offset ${Math.floor((hires - 1) / 2)} limit ${hires % 2 === 1 ? 1 : 2}`,
  );
  if (rows.length === 0) return null;
  const lower = Number(rows[0].days);
  const upper = Number((rows[1] ?? rows[0]).days);
  return lower + 0.5 * (upper - lower);
}

/** Hires submitted within [from, until) and their median days to hire. */
export async function keptTimeToHire(
  db: Db,
  companyId: string,
  from: Date | undefined,
  until: Date | undefined,
): Promise<{ hires: number; medianDays: number | null }> {
  const [row] = await queryRows<{ hires: number; median_days: number | null }>(
    db,
    sql`select count(*)::int as hires, percentile_cont(0.5) within group (order by days)::float8 as median_days
        from application_hires where company_id = ${companyId}
        ${from ? sql`and applied_at >= ${from.toISOString()}::timestamptz` : sql``}
        ${until ? sql`and applied_at < ${until.toISOString()}::timestamptz` : sql``}`,
  );
  return { hires: row.hires, medianDays: row.median_days === null ? null : Number(row.median_days) };
}

/**
 * Where the company's applications (in these statuses), newest first, reach `offset`: a query of
 * one row (`day`: the UTC day of submission the offset falls in; `before`: how many applications
 * of later days come first), none past the end. From the kept per-day counts, so a deep list page
 * enters its index at that day instead of walking the offset. A fragment for the page's statement
 * (one snapshot with the rows it finds). Each value may be a placeholder of a statement built once
 * and bound when it runs (statuses: a text[]).
 */
export function applicationDayAtOffsetSql(
  companyId: string | Placeholder,
  statuses: readonly string[] | Placeholder | undefined,
  offset: number | Placeholder,
): SQL {
  const only = statuses instanceof Placeholder
    ? sql`and status = any(${statuses}::text[])`
    : statuses && statuses.length > 0
      ? sql`and status = any(${sql.param(statuses)}::text[])`
      : sql``;
  return sql`select day, before from (
      select day, n, sum(n) over (order by day desc) - n as before from (
        select day, sum(n) as n from application_daily_counts where company_id = ${companyId} ${only}
        group by day having sum(n) <> 0
      ) days
    ) c
    where before <= ${offset}::bigint and before + n > ${offset}::bigint`;
}

// --- per listing and per source (migration 0043) ----------------------------------------------------

/**
 * The applications of each of the given listings of the company by current stage (only stages
 * with any): a few rows per listing whatever its number of applications. Another company's
 * listing has none here.
 */
export async function keptListingStageCounts(
  db: Db,
  companyId: string,
  listingIds: readonly string[],
): Promise<Array<{ jobListingId: string; status: string; count: number }>> {
  if (listingIds.length === 0) return [];
  return queryRows(
    db,
    sql`select job_listing_id as "jobListingId", status, sum(n)::int as count from listing_stage_counts
        where company_id = ${companyId} and job_listing_id = any(${sql.param([...listingIds])}::uuid[])
        group by job_listing_id, status having sum(n) <> 0`,
  );
}

/** Applications submitted within the range by source (sources without any left out). */
export async function keptSourceCounts(db: Db, companyId: string, range: DayRange): Promise<Array<{ source: string; count: number }>> {
  return queryRows(
    db,
    sql`select source, sum(n)::int as count from application_source_counts
        where company_id = ${companyId} ${dayConditions(range)}
        group by source having sum(n) <> 0`,
  );
}
