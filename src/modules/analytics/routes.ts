import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { AnalyticsOverviewQuery, analyticsSchemas, ListingCountsQuery, MAX_LISTING_IDS, NEW_APPLICATIONS_CAP } from './schemas.ts';
import { getListingCounts, getOverview } from './service.ts';

export async function analyticsRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/analytics/overview',
    {
      config: { auth: { scope: 'analytics:read' } },
      schema: {
        tags: ['Analytics'],
        operationId: 'getHiringOverview',
        summary: 'Hiring overview',
        description:
          'Job listings by status, applications by stage and by source, applications per day over the last 30 days, the stage conversion funnel and the median days to hire. `jobListingId` narrows everything to one listing; `from`/`to` select applications by the UTC day they were submitted.',
        querystring: AnalyticsOverviewQuery,
        response: { 200: Type.Ref('AnalyticsOverview'), ...errorResponses([422]) },
      },
    },
    async (request) => getOverview(app.ctx, principalOf(request).companyId, request.query),
  );

  app.get(
    '/public/v1/analytics/job-listings',
    {
      config: { auth: { scope: 'analytics:read' } },
      schema: {
        tags: ['Analytics'],
        operationId: 'getJobListingApplicationCounts',
        summary: 'Applications per listing, by stage',
        description: `For each listing named by \`jobListingId\` (repeated, at most ${MAX_LISTING_IDS}: e.g. the ids of a page of GET /public/v1/job-listings), its applications by current stage, read from counts kept as applications change (as cheap for a listing with thousands of applicants as for one with none). With \`since\`, also how many were submitted at or after that instant (\`newApplications\`, counted up to ${NEW_APPLICATIONS_CAP}): "new since your last visit". Ids that are not the company's listings are left out of \`data\`.`,
        querystring: ListingCountsQuery,
        response: { 200: Type.Ref('JobListingApplicationCounts'), ...errorResponses([422]) },
      },
    },
    async (request) => getListingCounts(app.ctx, principalOf(request).companyId, request.query),
  );
}

export { analyticsSchemas };
