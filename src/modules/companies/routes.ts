// /settings/company: for a signed-in user's access token (the dashboard). Any member reads; only an
// ADMIN changes the settings. (Listing review, under /settings/job-listings, is the job listings
// module's: job-listings/routes.ts, listingReviewRoutes.)
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { CreateRejectionReasonBody, RejectionReasonIdParams, RejectionReasonQuery, UpdateCompanyBody, UpdateRejectionReasonBody } from './schemas.ts';
import {
  createRejectionReason,
  getCompany,
  getRejectionReason,
  listRejectionReasons,
  removeRejectionReason,
  updateCompanySettings,
  updateRejectionReason,
} from './service.ts';

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
          'Name, default language (BCP 47), whether listings need review and whether a move to REJECTED needs a rejection reason. Turning review on sends listings published from then on to UNDER_REVIEW; turning it off leaves listings already waiting there until an ADMIN approves or rejects them.',
        body: UpdateCompanyBody,
        response: { 200: Type.Ref('CompanySettings'), ...errorResponses([400, 415, 422]) },
      },
    },
    async (request) => updateCompanySettings(app.ctx, principalOf(request).companyId, request.body),
  );
}

// /public/v1/rejection-reasons: the company's list of reasons a move to REJECTED or WITHDRAWN gives
// (docs/decisions.md, "Rejection reasons"). Read with applications:read (whoever reads the pipeline);
// changed with jobs:write, an ADMIN's scope (hiring configuration, as the listings are).
const reasonTags = ['Rejection reasons'];
const readReasons = { auth: { scope: 'applications:read' as const } };
const writeReasons = { auth: { scope: 'jobs:write' as const } };

export async function rejectionReasonRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/rejection-reasons',
    {
      config: readReasons,
      schema: {
        tags: reasonTags,
        operationId: 'listRejectionReasons',
        summary: 'List rejection reasons',
        description:
          'The company\'s reasons, oldest first (the default set every company starts with, then its own), archived ones included unless `active` says otherwise. A move to REJECTED gives a REJECTION reason as `reasonId`, a move to WITHDRAWN a WITHDRAWAL one (PATCH /public/v1/applications/{id}/status).',
        querystring: RejectionReasonQuery,
        response: { 200: Paginated(Type.Ref('RejectionReason')), ...errorResponses([422]) },
      },
    },
    async (request) => listRejectionReasons(app.ctx, principalOf(request).companyId, request.query),
  );

  app.get(
    '/public/v1/rejection-reasons/:id',
    {
      config: readReasons,
      schema: {
        tags: reasonTags,
        operationId: 'getRejectionReason',
        summary: 'Get a rejection reason',
        params: RejectionReasonIdParams,
        response: { 200: Type.Ref('RejectionReason'), ...errorResponses([404, 422]) },
      },
    },
    async (request) => getRejectionReason(app.ctx, principalOf(request).companyId, request.params.id),
  );

  app.post(
    '/public/v1/rejection-reasons',
    {
      config: writeReasons,
      schema: {
        tags: reasonTags,
        operationId: 'createRejectionReason',
        summary: 'Create a rejection reason',
        description: 'A name already used by a reason of the same kind (archived ones included, whatever the letter case) answers 409.',
        body: CreateRejectionReasonBody,
        response: { 201: Type.Ref('RejectionReason'), ...errorResponses([400, 409, 415, 422]) },
      },
    },
    async (request, reply) => reply.status(201).send(await createRejectionReason(app.ctx, principalOf(request).companyId, request.body)),
  );

  app.patch(
    '/public/v1/rejection-reasons/:id',
    {
      config: writeReasons,
      schema: {
        tags: reasonTags,
        operationId: 'updateRejectionReason',
        summary: 'Rename, archive or restore a rejection reason',
        description:
          'A new name shows wherever the reason shows, the history of earlier moves included. `active: false` archives the reason: no move can give it any more, and the moves that gave it keep it. A name taken by another reason of the same kind answers 409.',
        params: RejectionReasonIdParams,
        body: UpdateRejectionReasonBody,
        response: { 200: Type.Ref('RejectionReason'), ...errorResponses([400, 404, 409, 415, 422]) },
      },
    },
    async (request) => updateRejectionReason(app.ctx, principalOf(request).companyId, request.params.id, request.body),
  );

  app.delete(
    '/public/v1/rejection-reasons/:id',
    {
      config: writeReasons,
      schema: {
        tags: reasonTags,
        operationId: 'deleteRejectionReason',
        summary: 'Delete a rejection reason',
        description:
          'Deletes a reason no move ever gave. A reason some move gave is archived instead (`active: false`), so the history and the analytics keep its name; both answer 204.',
        params: RejectionReasonIdParams,
        response: { 204: Type.Null({ description: 'Deleted, or archived if a move gave it' }), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      await removeRejectionReason(app.ctx, principalOf(request).companyId, request.params.id);
      return reply.status(204).send(null);
    },
  );
}
