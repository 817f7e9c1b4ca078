import type { ServiceContext } from '../../shared/context.ts';
import { ValidationError } from '../../shared/errors.ts';
import { APPLICATION_STAGES, FUNNEL_STAGES } from '../applications/stages.ts';
import { JOB_LISTING_STATUSES } from '../reference-data/enums.ts';
import {
  countApplicationsByStage,
  countApplicationsPerDay,
  countFunnel,
  countListingsByStatus,
  timeToHire,
  type ApplicationScope,
} from './repo.ts';
import { OVERVIEW_DAYS, type AnalyticsOverviewQuery } from './schemas.ts';

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
  const firstDay = utcDay(new Date(dayStart(lastDay).getTime() - (OVERVIEW_DAYS - 1) * DAY_MS));

  const [listings, stages, perDay, funnel, hiring] = await Promise.all([
    countListingsByStatus(ctx.db, companyId, query.jobListingId),
    countApplicationsByStage(ctx.db, scope),
    countApplicationsPerDay(ctx.db, scope, firstDay, lastDay),
    countFunnel(ctx.db, scope),
    timeToHire(ctx.db, scope),
  ]);
  const applicationsByStage = zeroFilled(APPLICATION_STAGES, stages);
  return {
    generatedAt: now.toISOString(),
    filters: { jobListingId: query.jobListingId ?? null, from: query.from ?? null, to: query.to ?? null },
    jobListingsByStatus: zeroFilled(JOB_LISTING_STATUSES, listings),
    totalApplications: Object.values(applicationsByStage).reduce((sum, n) => sum + n, 0),
    applicationsByStage,
    applicationsPerDay: perDay,
    funnel: FUNNEL_STAGES.map((stage, index) => ({
      stage,
      count: funnel[index],
      conversionRate: index === 0 || funnel[index - 1] === 0 ? null : round(funnel[index] / funnel[index - 1], 4),
    })),
    hires: hiring.hires,
    medianDaysToHire: hiring.medianDays === null ? null : round(hiring.medianDays, 2),
  };
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
