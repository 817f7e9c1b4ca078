// /settings/company: for a signed-in user's access token (the dashboard). Any member reads; only an
// ADMIN changes the settings. (Listing review, under /settings/job-listings, is the job listings
// module's: job-listings/routes.ts, listingReviewRoutes.)
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { UpdateCompanyBody } from './schemas.ts';
import { getCompany, updateCompanySettings } from './service.ts';

const anyMember = { scope: null, bearerOnly: true } as const;
const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;

export async function companyRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/settings/company',
    {
      config: { auth: anyMember },
      schema: {
        operationId: 'getCompanySettings',
        tags: ['Company'],
        summary: "Read the company's settings",
        response: { 200: Type.Ref('CompanySettings') },
      },
    },
    async (request) => getCompany(app.ctx, principalOf(request).companyId),
  );

  app.patch(
    '/settings/company',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'updateCompanySettings',
        tags: ['Company'],
        summary: "Change the company's settings",
        description:
          'Name, default language (BCP 47) and whether listings need review. Turning review on sends listings published from then on to UNDER_REVIEW; turning it off leaves listings already waiting there until an ADMIN approves or rejects them.',
        body: UpdateCompanyBody,
        response: { 200: Type.Ref('CompanySettings'), ...errorResponses([400, 415, 422]) },
      },
    },
    async (request) => updateCompanySettings(app.ctx, principalOf(request).companyId, request.body),
  );
}
