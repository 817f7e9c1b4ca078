// Totals read from the kept counts (migration 0015): per company, resource and status, appended
// as signed deltas by triggers in the same transaction as every change, so a total (the sum of a
// key's few rows) is exact without counting the resource's rows. The only SQL that names the kept
// tables outside the migrations: a module reads them through these functions, either as a query of
// its own or as a fragment inside its statement (one snapshot with the rows it counts).
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

export type CountedResource = 'job_listings' | 'applications' | 'candidates';

export interface CountSelection {
  /** Only these statuses (none given: every status). */
  statuses?: readonly string[] | undefined;
  /** Every status but these. */
  exceptStatuses?: readonly string[] | undefined;
}

/**
 * The total as a scalar subquery (`(select ... )`, an int), to put into a statement that reads the
 * counted rows, so the total and the rows come from one snapshot. The statuses are one array
 * parameter, so the text is the same whatever their number.
 */
export function keptCountSql(companyId: string, resource: CountedResource, selection: CountSelection = {}): SQL {
  const only = selection.statuses && selection.statuses.length > 0 ? sql`and status = any(${sql.param(selection.statuses)}::text[])` : sql``;
  const except =
    selection.exceptStatuses && selection.exceptStatuses.length > 0
      ? sql`and status <> all(${sql.param(selection.exceptStatuses)}::text[])`
      : sql``;
  return sql`(select coalesce(sum(n), 0)::int from company_counts
      where company_id = ${companyId} and resource = ${resource} ${only} ${except})`;
}

/** How many rows of a resource the company has (in the given statuses). */
export async function keptCount(db: Db, companyId: string, resource: CountedResource, selection: CountSelection = {}): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select ${keptCountSql(companyId, resource, selection)} as n`);
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

/**
 * Where the company's applications (in these statuses), newest first, reach `offset`: a query of
 * one row (`day`: the UTC day of submission the offset falls in; `before`: how many applications
 * of later days come first), none past the end. From the kept per-day counts, so a deep list page
 * enters its index at that day instead of walking the offset. A fragment for the page's statement
 * (one snapshot with the rows it finds).
 */
export function applicationDayAtOffsetSql(companyId: string, statuses: readonly string[] | undefined, offset: number): SQL {
  const only = statuses && statuses.length > 0 ? sql`and status = any(${sql.param(statuses)}::text[])` : sql``;
  return sql`select day, before from (
      select day, n, sum(n) over (order by day desc) - n as before from (
        select day, sum(n) as n from application_daily_counts where company_id = ${companyId} ${only}
        group by day having sum(n) <> 0
      ) days
    ) c
    where before <= ${offset}::bigint and before + n > ${offset}::bigint`;
}
