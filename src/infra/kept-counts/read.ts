// Totals read from the kept counts (migration 0015): per company, resource and status, appended
// as signed deltas by triggers in the same transaction as every change, so a total (the sum of a
// key's few rows) is exact without counting the resource's rows. The one place that reads
// company_counts: a module answers its totals through these functions.
import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

export type CountedResource = 'job_listings' | 'applications' | 'candidates';

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
