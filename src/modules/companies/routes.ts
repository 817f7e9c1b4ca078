// /settings/company: for a signed-in user's access token (the dashboard). Any member reads; only an
// ADMIN changes the settings. (Listing review, under /settings/job-listings, is the job listings
// module's: job-listings/routes.ts, listingReviewRoutes.)
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { CreateRejectionReasonBody, RejectionReasonIdParams, RejectionReasonQuery, UpdateBoardBody, UpdateCompanyBody, UpdateRejectionReasonBody } from './schemas.ts';
import { LOGO_FORMATS, LOGO_MAX_BYTES } from './board-rules.ts';
import {
  createRejectionReason,
  getBoardSettings,
  getCompanySettings,
  removeBoardLogo,
  setBoardLogo,
  updateBoardSettings,
  getRejectionReason,
  listRejectionReasons,
  removeRejectionReason,
  updateCompanySettings,
  updateRejectionReason,
} from './service.ts';

const anyMember = { scope: null, bearerOnly: true } as const;
const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;

export async function companyRoutes(app: AppInstance): Promise<void> {
  // Whether the server asks applicants for a CAPTCHA: shown with the board settings, not a company setting.
  const captchaEnabled = Boolean(app.ctx.captcha);
  const withCaptcha = <T extends object>(view: T) => ({ ...view, captchaEnabled });
  const withBoardCaptcha = <T extends { board: object }>(view: T) => ({ ...view, board: withCaptcha(view.board) });

  app.get(
    '/settings/company',
    {
      config: { auth: anyMember },
      schema: {
        operationId: 'getCompanySettings',
        tags: ['Company'],
        summary: "Read the company's settings",
        description: "The company's settings, its job board's included (`board`: as GET /settings/company/board answers it).",
        response: { 200: Type.Ref('CompanySettings') },
      },
    },
    async (request) => withBoardCaptcha(await getCompanySettings(app.ctx, principalOf(request).companyId)),
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
          'Name, default language (BCP 47), whether listings need review and whether a move to REJECTED needs a rejection reason. Turning review on sends listings published from then on to UNDER_REVIEW; turning it off leaves listings already waiting there until an ADMIN approves or rejects them. `board` changes the job board\'s settings with them, as PATCH /settings/company/board does (fields left out keep their value; a failing field is named `board.<field>` in `details`): all or nothing, so a slug another company has (409) or a board turned on without a slug (422) leaves every field as it was.',
        body: UpdateCompanyBody,
        response: { 200: Type.Ref('CompanySettings'), ...errorResponses([400, 409, 415, 422]) },
      },
    },
    async (request) => withBoardCaptcha(await updateCompanySettings(app.ctx, principalOf(request).companyId, request.body)),
  );

  // The public job board's settings (docs/decisions.md, "Public job board"); the board itself is
  // the boards module's. The same settings as /settings/company's `board`, on their own (and the
  // logo, which is bytes, only here).
  app.get(
    '/settings/company/board',
    {
      config: { auth: anyMember },
      schema: {
        operationId: 'getBoardSettings',
        tags: ['Company'],
        summary: "Read the company's job board settings",
        description: 'The same settings as the `board` of GET /settings/company.',
        response: { 200: Type.Ref('BoardSettings') },
      },
    },
    async (request) => withCaptcha(await getBoardSettings(app.ctx, principalOf(request).companyId)),
  );

  app.patch(
    '/settings/company/board',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'updateBoardSettings',
        tags: ['Company'],
        summary: "Change the company's job board settings",
        description:
          'The same settings as the `board` of PATCH /settings/company. Fields left out keep their value; null clears one. The slug: 3 to 50 lower-case letters, digits and single hyphens, not a reserved word (422), not another company\'s (409). The board can be on (`enabled`) only with a slug (422). `accentColor` #rrggbb, `privacyPolicyUrl` https. `intro` replaces every intro text.',
        body: UpdateBoardBody,
        response: { 200: Type.Ref('BoardSettings'), ...errorResponses([400, 409, 415, 422]) },
      },
    },
    async (request) => withCaptcha(await updateBoardSettings(app.ctx, principalOf(request).companyId, request.body)),
  );

  // The image's bytes as the body, passed on as a stream (the service counts them against its limit).
  app.addContentTypeParser(['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'], (_request, payload, done) => done(null, payload));

  app.put(
    '/settings/company/board/logo',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'setBoardLogo',
        tags: ['Company'],
        summary: "Upload the job board's logo",
        description: `The image's bytes as the body (Content-Type image/png, image/jpeg, image/webp or application/octet-stream). Its type is decided from the bytes: ${LOGO_FORMATS} only (SVG is refused: it can carry script), else 415; at most ${LOGO_MAX_BYTES} bytes (413). Replaces the previous logo.`,
        body: {
          content: {
            'image/png': { schema: Type.String({ format: 'binary' }) },
            'image/jpeg': { schema: Type.String({ format: 'binary' }) },
            'image/webp': { schema: Type.String({ format: 'binary' }) },
            'application/octet-stream': { schema: Type.String({ format: 'binary' }) },
          },
        },
        response: { 200: Type.Ref('BoardSettings'), ...errorResponses([413, 415, 422]) },
      },
      validatorCompiler: () => () => true,
    },
    async (request) => withCaptcha(await setBoardLogo(app.ctx, principalOf(request).companyId, request.body as AsyncIterable<Uint8Array>)),
  );

  app.delete(
    '/settings/company/board/logo',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'deleteBoardLogo',
        tags: ['Company'],
        summary: "Remove the job board's logo",
        response: { 200: Type.Ref('BoardSettings') },
      },
    },
    async (request) => withCaptcha(await removeBoardLogo(app.ctx, principalOf(request).companyId)),
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
