// Totals read from the kept counts (migration 0015): per company, resource and status, appended
// as signed deltas by triggers in the same transaction as every change, so a total (the sum of a
// key's few rows) is exact without counting the resource's rows.
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';

export type CountedResource = 'job_listings' | 'applications' | 'candidates';

export interface CountSelection {
  /** Only these statuses (none given: every status). */
  statuses?: readonly string[] | undefined;
  /** Every status but these. */
  exceptStatuses?: readonly string[] | undefined;
}

/** How many rows of a resource the company has (in the given statuses). */
export async function keptCount(db: Db, companyId: string, resource: CountedResource, selection: CountSelection = {}): Promise<number> {
  const list = (values: readonly string[]) => sql.join(values.map((value) => sql`${value}`), sql`, `);
  const only = selection.statuses && selection.statuses.length > 0 ? sql`and status in (${list(selection.statuses)})` : sql``;
  const except =
    selection.exceptStatuses && selection.exceptStatuses.length > 0 ? sql`and status not in (${list(selection.exceptStatuses)})` : sql``;
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(sum(n), 0)::int as n from company_counts
        where company_id = ${companyId} and resource = ${resource} ${only} ${except}`,
  );
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
 * keptCount as a scalar subquery, for a module's fixed statement (queryStatement) that answers a
 * page and its total in one round trip: `company` is the parameter holding the company's id (e.g.
 * '$1'); `statusCondition`, if given, a condition on `status` (e.g. "status = any($4::text[])").
 */
export function keptCountText(resource: CountedResource, company: string, statusCondition?: string): string {
  return `(select coalesce(sum(n), 0)::int from company_counts
    where company_id = ${company} and resource = '${resource}'${statusCondition ? ` and ${statusCondition}` : ''})`;
}
