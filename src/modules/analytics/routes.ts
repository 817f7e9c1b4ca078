import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { AnalyticsOverviewQuery, analyticsSchemas } from './schemas.ts';
import { getOverview } from './service.ts';

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
          'Job listings by status, applications by stage, applications per day over the last 30 days, the stage conversion funnel and the median days to hire. `jobListingId` narrows everything to one listing; `from`/`to` select applications by the UTC day they were submitted.',
        querystring: AnalyticsOverviewQuery,
        response: { 200: Type.Ref('AnalyticsOverview'), ...errorResponses([422]) },
      },
    },
    async (request) => getOverview(app.ctx, principalOf(request).companyId, request.query),
  );
}

export { analyticsSchemas };
