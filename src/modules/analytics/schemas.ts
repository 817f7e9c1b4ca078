import { Type, type Static, type TSchema } from 'typebox';
import { JOB_LISTING_STATUSES } from '../reference-data/enums.ts';
import { APPLICATION_STAGES, FUNNEL_STAGES } from '../applications/stages.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const countsOf = (keys: readonly string[], description: string) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, Type.Integer({ minimum: 0 })])), { description });

export const OVERVIEW_DAYS = 30;
/** The longest applicationsPerDay series (a year and a day: a leap year's from..to). */
export const MAX_SERIES_DAYS = 367;

export const AnalyticsOverviewQuery = Type.Object(
  {
    jobListingId: Type.Optional(Type.String({ format: 'uuid', description: 'Only this job listing' })),
    from: Type.Optional(
      Type.String({ format: 'date', description: 'Only applications submitted on or after this day (UTC, YYYY-MM-DD)' }),
    ),
    to: Type.Optional(
      Type.String({
        format: 'date',
        description: `Only applications submitted on or before this day (UTC, YYYY-MM-DD); also the last day of applicationsPerDay (default: today)`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type AnalyticsOverviewQuery = Static<typeof AnalyticsOverviewQuery>;

export const AnalyticsOverview = Type.Object(
  {
    generatedAt: Type.String({ format: 'date-time' }),
    filters: Type.Object({
      jobListingId: Nullable(Type.String({ format: 'uuid' })),
      from: Nullable(Type.String({ format: 'date' })),
      to: Nullable(Type.String({ format: 'date' })),
    }),
    jobListingsByStatus: countsOf(JOB_LISTING_STATUSES, 'Job listings by current status (the date filters do not apply)'),
    totalApplications: Type.Integer({ description: 'Applications matching the filters' }),
    applicationsByStage: countsOf(APPLICATION_STAGES, 'Applications matching the filters, by current stage'),
    applicationsPerDay: Type.Array(
      Type.Object({ date: Type.String({ format: 'date' }), count: Type.Integer({ minimum: 0 }) }),
      {
        description: `Applications submitted on each day (UTC) from \`from\` to \`to\` (default today), oldest first, days without any included: the period the other figures cover. Without \`from\`, the ${OVERVIEW_DAYS} days ending at \`to\`; at most the last ${MAX_SERIES_DAYS} days of a longer period.`,
      },
    ),
    funnel: Type.Array(
      Type.Object({
        stage: Type.Enum(FUNNEL_STAGES),
        count: Type.Integer({ description: 'Applications that reached this stage or a later one, whatever their stage now' }),
        conversionRate: Nullable(
          Type.Number({ description: 'count / count of the previous stage (0..1); null for the first stage or when the previous is 0' }),
        ),
      }),
      { description: `The forward path ${FUNNEL_STAGES.join(' -> ')}; REJECTED and WITHDRAWN leave it` },
    ),
    hires: Type.Integer({ description: 'Applications now HIRED' }),
    medianDaysToHire: Nullable(
      Type.Number({ description: 'Median of the days from submission to the move into HIRED, over the hires; null without hires' }),
    ),
    rejectionsByReason: Type.Array(
      Type.Object({
        status: Type.Union([Type.Literal('REJECTED'), Type.Literal('WITHDRAWN')]),
        reason: Type.Union([Type.Ref('RejectionReasonRef'), Type.Null()], { description: 'null: moved there without a reason' }),
        count: Type.Integer({ minimum: 1 }),
      }),
      {
        description:
          'The applications now REJECTED or WITHDRAWN (as applicationsByStage counts them, with the same filters) by the rejection reason the move there gave: for each stage the counts add up to its applicationsByStage count. REJECTED first, then most first; reasons no application has are left out.',
      },
    ),
  },
  { $id: 'AnalyticsOverview' },
);

export const analyticsSchemas = [AnalyticsOverview];
