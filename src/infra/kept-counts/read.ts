// Totals read from the kept counts (migration 0015): per company, resource and status, appended
// as signed deltas by triggers in the same transaction as every change, so a total (the sum of a
// key's few rows) is exact without counting the resource's rows. The one place that reads
// company_counts: a module answers its totals through these functions.
import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { queryRows, queryStatement, type Db } from '../../db/client.ts';
import { flagsKey, PageStatements, placeholderOf } from '../../db/page-statements.ts';

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

// --- a company's kept figures, for the analytics overview ---------------------------------------
// From company_counts, application_daily_counts (deltas per company, UTC day of submission, status
// and furthest funnel stage), application_source_counts and application_hires (one row per current
// hire), which triggers keep in the same transaction as every change: a whole company's figures
// from a few thousand rows whatever the number of applications.

export interface DayRange {
  /** First UTC day included (YYYY-MM-DD), if any. */
  fromDay?: string | undefined;
  /** Last UTC day included (YYYY-MM-DD), if any. */
  toDay?: string | undefined;
}

export interface KeptFiguresQuery {
  /** The applications counted by stage and by source: submitted within these UTC days. */
  range: DayRange;
  /** The per-day series: these UTC days (both given). */
  series: { fromDay: string; toDay: string };
  /**
   * Hires submitted within [from, until), counted with their median days to hire; undefined: every
   * current hire (the kept count, the median read from the (company_id, days) index at an offset).
   */
  hiredWithin?: { from: Date | undefined; until: Date | undefined } | undefined;
}

export interface KeptFigures {
  /** The company's listings by status (only statuses with any). */
  listings: Array<{ status: string; count: number }>;
  /** Applications by current stage and furthest funnel stage (index into FUNNEL_STAGES). */
  stages: Array<{ status: string; furthest: number; count: number }>;
  /** Submissions per UTC day of the series (days without any left out). */
  days: Array<{ date: string; count: number }>;
  /** Applications by source (sources without any left out). */
  sources: Array<{ source: string; count: number }>;
  hiring: { hires: number; medianDays: number | null };
}

interface FigureValues {
  companyId: string;
  fromDay: string;
  toDay: string;
  seriesFrom: string;
  seriesTo: string;
  hiredFrom: string;
  hiredUntil: string;
}
const figureValue = placeholderOf<FigureValues>();
const FIGURE_FLAGS = ['hiring', 'fromDay', 'toDay', 'dated', 'hiredFrom', 'hiredUntil'] as const;
type FigureShape = Record<(typeof FIGURE_FLAGS)[number], boolean>;

/** A JSON array of the rows `query` answers (an empty array for none). */
const jsonRows = (query: SQL) => sql`(select coalesce(json_agg(r), '[]') from (${query}) r)`;

function keptFiguresStatement(shape: FigureShape): SQL {
  const company = figureValue('companyId');
  const inRange = sql`${shape.fromDay ? sql`and day >= ${figureValue('fromDay')}::date` : sql``} ${shape.toDay ? sql`and day <= ${figureValue('toDay')}::date` : sql``}`;
  // Every current hire: the median is the middle one or two, read from the (company_id, days)
  // index at an offset the kept count gives, interpolated as percentile_cont(0.5) does.
  const hiring = shape.dated
    ? sql`(select json_build_object('hires', count(*)::int, 'medianDays', percentile_cont(0.5) within group (order by days)::float8)
        from application_hires where company_id = ${company}
        ${shape.hiredFrom ? sql`and applied_at >= ${figureValue('hiredFrom')}::timestamptz` : sql``}
        ${shape.hiredUntil ? sql`and applied_at < ${figureValue('hiredUntil')}::timestamptz` : sql``})`
    : sql`(select json_build_object('hires', h.n, 'medianDays', case when h.n > 0 then (
          select avg(days)::float8 from (select days from application_hires where company_id = ${company}
            order by days offset (h.n - 1) / 2 limit 2 - h.n % 2) m) end)
        from (select coalesce(sum(n), 0)::int as n from company_counts
          where company_id = ${company} and resource = 'applications' and status = 'HIRED') h)`;
  if (shape.hiring) return sql`select ${hiring} as hiring`;
  return sql`select
    ${jsonRows(sql`select status, sum(n)::int as count from company_counts where company_id = ${company} and resource = 'job_listings'
      group by status having sum(n) <> 0`)} as listings,
    ${jsonRows(sql`select status, furthest_stage::int as furthest, sum(n)::int as count from application_daily_counts
      where company_id = ${company} ${inRange} group by status, furthest_stage having sum(n) <> 0`)} as stages,
    ${jsonRows(sql`select to_char(day, 'YYYY-MM-DD') as date, sum(n)::int as count from application_daily_counts
      where company_id = ${company} and day >= ${figureValue('seriesFrom')}::date and day <= ${figureValue('seriesTo')}::date
      group by day having sum(n) <> 0`)} as days,
    ${jsonRows(sql`select source, sum(n)::int as count from application_source_counts where company_id = ${company} ${inRange}
      group by source having sum(n) <> 0`)} as sources`;
}

const KEPT_FIGURES = new PageStatements<FigureShape, FigureValues>(flagsKey(FIGURE_FLAGS), keptFiguresStatement);

/**
 * The company's kept figures in two statements run side by side: the counts (listings, stages,
 * days, sources) in one, the hires and their median in the other (the median's index read is the
 * longest part; apart, a request waits for the longer of the two rather than their sum). Each a
 * fixed text per shape (which of the days are given), prepared once per connection
 * (queryStatement): the overview's eight queries had been parsed and planned on every request.
 */
export async function keptFigures(db: Db, companyId: string, query: KeptFiguresQuery): Promise<KeptFigures> {
  const hired = query.hiredWithin;
  const shape = {
    hiring: false,
    fromDay: query.range.fromDay !== undefined,
    toDay: query.range.toDay !== undefined,
    dated: hired !== undefined,
    hiredFrom: hired?.from !== undefined,
    hiredUntil: hired?.until !== undefined,
  };
  const values = {
    companyId,
    fromDay: query.range.fromDay,
    toDay: query.range.toDay,
    seriesFrom: query.series.fromDay,
    seriesTo: query.series.toDay,
    hiredFrom: hired?.from?.toISOString(),
    hiredUntil: hired?.until?.toISOString(),
  };
  const run = async <T>(hiring: boolean) => {
    const statement = KEPT_FIGURES.bind({ ...shape, hiring }, values);
    const [row] = await queryStatement<T>(db, statement.text, statement.values);
    return row;
  };
  const [counts, { hiring }] = await Promise.all([run<Omit<KeptFigures, 'hiring'>>(false), run<Pick<KeptFigures, 'hiring'>>(true)]);
  return { ...counts, hiring };
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

// --- per listing (migration 0043) ------------------------------------------------------------------

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
