import { Type, type Static, type TSchema } from 'typebox';
import { JOB_LISTING_STATUSES } from '../reference-data/enums.ts';
import { APPLICATION_SOURCES, APPLICATION_STAGES, FUNNEL_STAGES } from '../applications/stages.ts';

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
    applicationsBySource: countsOf(
      APPLICATION_SOURCES,
      'Applications matching the filters, by the source they came through (every source, 0 included); adds up to totalApplications',
    ),
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

/** The most listings one request of the listing counts names (a list page's largest size). */
export const MAX_LISTING_IDS = 100;
/** Applications since `since` are counted up to this many per listing. */
export const NEW_APPLICATIONS_CAP = 1000;

export const ListingCountsQuery = Type.Object(
  {
    jobListingId: Type.Array(Type.String({ format: 'uuid' }), {
      minItems: 1,
      maxItems: MAX_LISTING_IDS,
      description: `The listings to count, repeated (\`?jobListingId=...&jobListingId=...\`), at most ${MAX_LISTING_IDS}: typically the ids of a page of GET /public/v1/job-listings.`,
    }),
    since: Type.Optional(
      Type.String({
        format: 'date-time',
        description: `Also count, per listing, the applications submitted at or after this instant (RFC 3339), e.g. when a person last looked: \`newApplications\`.`,
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListingCountsQuery = Static<typeof ListingCountsQuery>;

export const JobListingApplicationCounts = Type.Object(
  {
    since: Nullable(Type.String({ format: 'date-time', description: 'The `since` asked for, if any' })),
    data: Type.Array(
      Type.Object({
        jobListingId: Type.String({ format: 'uuid' }),
        totalApplications: Type.Integer({ minimum: 0, description: 'Applications to the listing, in any stage' }),
        applicationsByStage: countsOf(APPLICATION_STAGES, 'Applications to the listing by current stage (every stage, 0 included)'),
        newApplications: Nullable(
          Type.Integer({
            minimum: 0,
            maximum: NEW_APPLICATIONS_CAP,
            description: `Applications submitted at or after \`since\`, counted up to ${NEW_APPLICATIONS_CAP} (${NEW_APPLICATIONS_CAP} means that many or more); null without \`since\``,
          }),
        ),
      }),
      { description: 'One item per listing asked for, in the order asked; ids that are not listings of the company are left out' },
    ),
  },
  { $id: 'JobListingApplicationCounts' },
);

export const analyticsSchemas = [AnalyticsOverview, JobListingApplicationCounts];
