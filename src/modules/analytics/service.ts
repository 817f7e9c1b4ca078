import type { ServiceContext } from '../../shared/context.ts';
import { ValidationError } from '../../shared/errors.ts';
import { APPLICATION_SOURCES, APPLICATION_STAGES, FUNNEL_STAGES } from '../applications/stages.ts';
import { JOB_LISTING_STATUSES } from '../reference-data/enums.ts';
import { rejectionReasonsOf, type RejectionReasonRef } from '../companies/service.ts';
import { STAGE_OF_KIND } from '../companies/rejection-reasons.ts';
import { keptFigures, keptListingStageCounts } from '../../infra/kept-counts/read.ts';
import {
  companyListingIds,
  countApplicationsBySource,
  countApplicationsByStage,
  countApplicationsPerDay,
  countApplicationsSince,
  countFunnel,
  countListingsByStatus,
  countRejectionsByReason,
  timeToHire,
  type ApplicationScope,
} from './repo.ts';
import { MAX_SERIES_DAYS, NEW_APPLICATIONS_CAP, OVERVIEW_DAYS, type AnalyticsOverviewQuery, type ListingCountsQuery } from './schemas.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

function dayStart(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

function zeroFilled(keys: readonly string[], rows: Array<{ status: string; count: number }>): Record<string, number> {
  const counts = Object.fromEntries(keys.map((key) => [key, 0]));
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

/**
 * The company's hiring overview. from/to select applications by the day they were submitted
 * (UTC, both days included); listing counts are the current state and ignore them.
 */
export async function getOverview(ctx: ServiceContext, companyId: string, query: AnalyticsOverviewQuery) {
  if (query.from && query.to && query.to < query.from) throw ValidationError.field('to', 'must not be before from');
  const now = ctx.clock.now();
  const scope: ApplicationScope = {
    companyId,
    jobListingId: query.jobListingId,
    from: query.from ? dayStart(query.from) : undefined,
    until: query.to ? new Date(dayStart(query.to).getTime() + DAY_MS) : undefined,
  };
  const lastDay = query.to ?? utcDay(now);
  // The series covers the period asked for (from..to), so a chart of it shows the figures' period;
  // without `from`, the 30 days ending at `to`. Bounded: at most the last MAX_SERIES_DAYS of it.
  const earliest = utcDay(new Date(dayStart(lastDay).getTime() - (MAX_SERIES_DAYS - 1) * DAY_MS));
  const firstDay = query.from
    ? query.from > lastDay
      ? lastDay
      : query.from < earliest
        ? earliest
        : query.from
    : utcDay(new Date(dayStart(lastDay).getTime() - (OVERVIEW_DAYS - 1) * DAY_MS));

  const [{ listings, stages, perDay, funnel, hiring, sources }, { reasoned, reasons }] = await Promise.all([
    query.jobListingId
      ? listingFigures(ctx, scope, query.jobListingId, firstDay, lastDay)
      : companyFigures(ctx, companyId, query, firstDay, lastDay, scope),
    // The reasons' names only when some application has one (as the applications' history reads them).
    countRejectionsByReason(ctx.db, scope).then(async (rows) => ({
      reasoned: rows,
      reasons: rows.length > 0 ? await rejectionReasonsOf(ctx, companyId) : new Map<string, RejectionReasonRef>(),
    })),
  ]);
  const applicationsByStage = zeroFilled(APPLICATION_STAGES, stages);
  return {
    generatedAt: now.toISOString(),
    filters: { jobListingId: query.jobListingId ?? null, from: query.from ?? null, to: query.to ?? null },
    jobListingsByStatus: zeroFilled(JOB_LISTING_STATUSES, listings),
    totalApplications: Object.values(applicationsByStage).reduce((sum, n) => sum + n, 0),
    applicationsByStage,
    applicationsBySource: zeroFilled(
      APPLICATION_SOURCES,
      sources.map((row) => ({ status: row.source, count: row.count })),
    ),
    applicationsPerDay: perDay,
    funnel: FUNNEL_STAGES.map((stage, index) => ({
      stage,
      count: funnel[index],
      conversionRate: index === 0 || funnel[index - 1] === 0 ? null : round(funnel[index] / funnel[index - 1], 4),
    })),
    hires: hiring.hires,
    medianDaysToHire: hiring.medianDays === null ? null : round(hiring.medianDays, 2),
    rejectionsByReason: byReason(reasoned, reasons, applicationsByStage),
  };
}

type EndStage = 'REJECTED' | 'WITHDRAWN';

/**
 * The applications now REJECTED or WITHDRAWN (those applicationsByStage counts), by the rejection
 * reason the move there gave; `reason` null: moved there without one (the stage's count less the
 * ones with a reason). Most first within each stage, REJECTED first.
 */
function byReason(
  reasoned: Array<{ reasonId: string; count: number }>,
  reasons: ReadonlyMap<string, RejectionReasonRef>,
  byStage: Record<string, number>,
): Array<{ status: EndStage; reason: RejectionReasonRef | null; count: number }> {
  const rows: Array<{ status: EndStage; reason: RejectionReasonRef | null; count: number }> = [];
  for (const { reasonId, count } of reasoned) {
    const reason = reasons.get(reasonId);
    if (reason) rows.push({ status: STAGE_OF_KIND[reason.kind], reason, count });
  }
  for (const status of ['REJECTED', 'WITHDRAWN'] as const) {
    const given = rows.filter((row) => row.status === status).reduce((sum, row) => sum + row.count, 0);
    // Two reads, two snapshots: a move committed between them must not make a negative count.
    const without = Math.max(0, (byStage[status] ?? 0) - given);
    if (without > 0) rows.push({ status, reason: null, count: without });
  }
  const order = { REJECTED: 0, WITHDRAWN: 1 };
  return rows.sort(
    (a, b) => order[a.status] - order[b.status] || b.count - a.count || (a.reason?.name ?? '\uffff').localeCompare(b.reason?.name ?? '\uffff'),
  );
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

interface Figures {
  listings: Array<{ status: string; count: number }>;
  stages: Array<{ status: string; count: number }>;
  perDay: Array<{ date: string; count: number }>;
  funnel: number[];
  hiring: { hires: number; medianDays: number | null };
  sources: Array<{ source: string; count: number }>;
}

/** One listing: its few applications are read directly. */
async function listingFigures(
  ctx: ServiceContext,
  scope: ApplicationScope,
  jobListingId: string,
  firstDay: string,
  lastDay: string,
): Promise<Figures> {
  const [listings, stages, perDay, funnel, hiring, sources] = await Promise.all([
    countListingsByStatus(ctx.db, scope.companyId, jobListingId),
    countApplicationsByStage(ctx.db, scope),
    countApplicationsPerDay(ctx.db, scope, firstDay, lastDay),
    countFunnel(ctx.db, scope),
    timeToHire(ctx.db, scope),
    countApplicationsBySource(ctx.db, scope),
  ]);
  return { listings, stages, perDay, funnel, hiring, sources };
}

/**
 * The whole company: from the aggregates kept in the same transaction as every change (never a
 * scan of its applications), so the figures equal a recomputation at any size.
 */
async function companyFigures(
  ctx: ServiceContext,
  companyId: string,
  query: AnalyticsOverviewQuery,
  firstDay: string,
  lastDay: string,
  scope: ApplicationScope,
): Promise<Figures> {
  // The series from its first day (or `from`, if later) to its last.
  const series = { fromDay: query.from && query.from > firstDay ? query.from : firstDay, toDay: lastDay };
  const dated = Boolean(query.from || query.to);
  const { listings, stages: stageRows, days: dayRows, sources, hiring } = await keptFigures(ctx.db, companyId, {
    range: { fromDay: query.from, toDay: query.to },
    series,
    hiredWithin: dated ? { from: scope.from, until: scope.until } : undefined,
  });
  const byStage = new Map<string, number>();
  for (const row of stageRows) byStage.set(row.status, (byStage.get(row.status) ?? 0) + row.count);
  const byDay = new Map(dayRows.map((row) => [row.date, row.count]));
  const perDay: Array<{ date: string; count: number }> = [];
  for (let at = dayStart(firstDay).getTime(); at <= dayStart(lastDay).getTime(); at += DAY_MS) {
    const date = utcDay(new Date(at));
    perDay.push({ date, count: byDay.get(date) ?? 0 });
  }
  return {
    listings,
    stages: [...byStage].map(([status, count]) => ({ status, count })),
    perDay,
    funnel: FUNNEL_STAGES.map((_, index) =>
      stageRows.filter((row) => row.furthest >= index).reduce((sum, row) => sum + row.count, 0),
    ),
    hiring,
    sources,
  };
}

/**
 * Per listing of the company among `query.jobListingId` (in the order asked, others left out):
 * its applications by current stage from the kept per-listing counts (never a count over its
 * applications), and with `since` how many were submitted since then, each counted up to
 * NEW_APPLICATIONS_CAP from the (company, listing, applied_at) index.
 */
export async function getListingCounts(ctx: ServiceContext, companyId: string, query: ListingCountsQuery) {
  const asked = [...new Set(query.jobListingId.map((id) => id.toLowerCase()))];
  const since = query.since === undefined ? undefined : new Date(query.since);
  const [own, stageRows, recent] = await Promise.all([
    companyListingIds(ctx.db, companyId, asked),
    keptListingStageCounts(ctx.db, companyId, asked),
    since ? countApplicationsSince(ctx.db, companyId, asked, since, NEW_APPLICATIONS_CAP) : Promise.resolve([]),
  ]);
  const known = new Set(own);
  const newSince = new Map(recent.map((row) => [row.jobListingId, row.count]));
  return {
    since: since?.toISOString() ?? null,
    data: asked
      .filter((id) => known.has(id))
      .map((id) => {
        const applicationsByStage = zeroFilled(
          APPLICATION_STAGES,
          stageRows.filter((row) => row.jobListingId === id),
        );
        return {
          jobListingId: id,
          totalApplications: Object.values(applicationsByStage).reduce((sum, n) => sum + n, 0),
          applicationsByStage,
          newApplications: since ? (newSince.get(id) ?? 0) : null,
        };
      }),
  };
}
