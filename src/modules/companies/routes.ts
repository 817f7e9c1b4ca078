// /settings/company and listing review: for a signed-in user's access token (the dashboard). Any
// member reads; only an ADMIN changes the settings or approves and rejects listings waiting for
// review (an API key never can: review exists so that a person vouches for what integrations post).
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { approveJobListing, rejectJobListing } from '../job-listings/service.ts';
import { RejectListingBody, UpdateCompanyBody } from './schemas.ts';
import { getCompany, updateCompanySettings } from './service.ts';

const anyMember = { scope: null, bearerOnly: true } as const;
const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;
const ListingIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

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

  app.post(
    '/settings/job-listings/:id/approve',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'approveJobListing',
        tags: ['Listing review'],
        summary: 'Approve a listing waiting for review',
        description: 'UNDER_REVIEW -> ACTIVE (published). Any other status: 409. A listing whose jobListingEndDate has passed: 422. No body.',
        params: ListingIdParams,
        response: { 200: Type.Ref('JobListing'), ...errorResponses([404, 409, 415, 422]) },
      },
    },
    async (request, reply) => {
      const result = await approveJobListing(app.ctx, principalOf(request).companyId, request.params.id, {
        acceptLanguage: request.headers['accept-language'],
      });
      reply.header('content-language', result.language);
      return result.listing;
    },
  );

  app.post(
    '/settings/job-listings/:id/reject',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'rejectJobListing',
        tags: ['Listing review'],
        summary: 'Reject a listing waiting for review',
        description: 'UNDER_REVIEW -> DRAFT, with the reason shown in rejectionReason until the listing is published again. Any other status: 409.',
        params: ListingIdParams,
        body: RejectListingBody,
        response: { 200: Type.Ref('JobListing'), ...errorResponses([400, 404, 409, 415, 422]) },
      },
    },
    async (request, reply) => {
      const result = await rejectJobListing(app.ctx, principalOf(request).companyId, request.params.id, request.body.reason, {
        acceptLanguage: request.headers['accept-language'],
      });
      reply.header('content-language', result.language);
      return result.listing;
    },
  );
}
