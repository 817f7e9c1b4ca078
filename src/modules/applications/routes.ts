import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { entityTag } from '../../shared/etag.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LanguageOptions } from '../job-listings/service.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { PageQuery, Paginated } from '../../http/pagination.ts';
import { ImportCandidatesBody, ImportResult, MAX_IMPORT_RESUMES, MAX_IMPORT_ROWS } from '../candidates/schemas.ts';
import {
  ApplicationIdParams,
  ApplicationListQuery,
  applicationSchemas,
  CandidateApplication,
  CandidateProfile,
  SubmitApplicationBody,
  UpdateStatusBody,
} from './schemas.ts';
import {
  getApplication,
  getApplicationHistory,
  getCandidateProfile,
  importCandidates,
  listApplications,
  submitApplication,
  updateApplicationStatus,
  type PresentedApplication,
} from './service.ts';

const tags = ['Applications'];
const candidateTags = ['Candidates'];
const read = { auth: { scope: 'applications:read' as const } };
const write = { auth: { scope: 'applications:write' as const } };

export async function applicationRoutes(app: AppInstance): Promise<void> {
  const language = (request: FastifyRequest): LanguageOptions => ({ acceptLanguage: request.headers['accept-language'] });
  // The embedded listing's texts are in the negotiated language, said as for the listing itself.
  const send = (reply: FastifyReply, presented: PresentedApplication, status = 200) =>
    reply.status(status).header('Content-Language', presented.language).send(presented.application);

  app.post(
    '/public/v1/applications',
    {
      config: write,
      // A résumé in base64 is 4/3 of the file limit; the cover letter and the rest fit in the 1 MB beside it.
      bodyLimit: Math.ceil((app.deps.config.fileMaxBytes * 4) / 3) + 1024 * 1024,
      schema: {
        tags,
        operationId: 'submitApplication',
        summary: 'Submit an external application',
        description:
          'Applies a candidate to an ACTIVE job listing (409 otherwise). The candidate is matched by email, without letter case, among the company\'s candidates, or created (candidate.created). A candidate applies to a listing once: a second application answers 409 with the existing application\'s id in `details` (field `existingApplicationId`). An unknown jobListingId answers 422. Emits application.created. With `resume`, the file is stored as the candidate\'s RESUME tied to the application (candidate.file_added), checked like any candidate file: larger than FILE_MAX_BYTES 413, a type not accepted (decided from the bytes) 415, bad base64 or a refused URL 422; a refused résumé refuses the application, and nothing is stored.',
        body: SubmitApplicationBody,
        response: {
          201: Type.Ref('Application'),
          ...errorResponses([400, 409, 422]),
          413: { ...Type.Ref('ErrorEnvelope'), description: 'The résumé is larger than FILE_MAX_BYTES (or the body larger than its base64 allows)' },
          415: { ...Type.Ref('ErrorEnvelope'), description: 'The résumé is not an accepted type (decided from its bytes), or the body is not JSON' },
        },
      },
    },
    async (request, reply) =>
      send(reply, await submitApplication(app.ctx, principalOf(request), request.body, { ...language(request), maxFileBytes: app.deps.config.fileMaxBytes }), 201),
  );

  app.get(
    '/public/v1/applications',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listApplications',
        summary: 'List applications',
        description:
          'Newest first (by `updatedAt` ascending with `updatedSince`). Filters combine with AND; a repeated `status` or `source` matches any of its values. `appliedFrom` (inclusive) and `appliedTo` (exclusive) bound the submission time, as instants (RFC 3339 date-times: give the offset of the day you mean). `q` keeps the applications whose candidate matches the candidate search (name, email, headline, skills, file text). Read further pages by `cursor` with the same filters.',
        querystring: ApplicationListQuery,
        response: { 200: Paginated(Type.Ref('ApplicationSummary')), ...errorResponses([422]) },
      },
    },
    async (request) => listApplications(app.ctx, principalOf(request).companyId, request.query),
  );

  app.get(
    '/public/v1/applications/:id',
    {
      config: read,
      schema: {
        tags,
        operationId: 'getApplication',
        summary: 'Get an application with its job listing and candidate',
        description: 'The embedded job listing\'s texts follow Accept-Language, as on GET /public/v1/job-listings/{id}.',
        params: ApplicationIdParams,
        response: { 200: { ...Type.Ref('Application'), headers: { ETag: { type: 'string', description: 'Version of this representation (changes whenever the answer would)' } } }, ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const presented = await getApplication(app.ctx, principalOf(request).companyId, request.params.id, language(request));
      reply.header('ETag', entityTag(presented.application, presented.language));
      return send(reply, presented);
    },
  );

  app.patch(
    '/public/v1/applications/:id/status',
    {
      config: write,
      schema: {
        tags,
        operationId: 'updateApplicationStatus',
        summary: 'Move an application to a pipeline stage',
        description:
          'Any stage may be moved to any other. The same stage again answers 200 and changes nothing (no event). `reason` (a free-text note) is kept in the history and sent in the event. A move to REJECTED or WITHDRAWN may give `reasonId`, one of the company\'s active rejection reasons of the matching kind (GET /public/v1/rejection-reasons); the company may require one for REJECTED (`requiresRejectionReason`). A wrong `reasonId` (another stage, unknown, another company\'s, the other kind, archived) or a missing required one answers 422 and moves nothing. With `expectedStatus`, the move happens only if the application is still in that stage, else 409: two recruiters moving the same application cannot overwrite each other. Emits application.status_changed with application, previousStatus, newStatus, reason and rejectionReason.',
        params: ApplicationIdParams,
        body: UpdateStatusBody,
        response: { 200: Type.Ref('Application'), ...errorResponses([400, 404, 409, 422]) },
      },
    },
    async (request, reply) =>
      send(
        reply,
        await updateApplicationStatus(app.ctx, principalOf(request), request.params.id, request.body, language(request)),
      ),
  );

  app.get(
    '/public/v1/applications/:id/history',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listApplicationStatusHistory',
        summary: 'Stage history of an application',
        description: 'Every stage the application entered, newest first; the last entry (fromStatus null) is the submission.',
        params: ApplicationIdParams,
        querystring: Type.Object(PageQuery, { additionalProperties: false }),
        response: { 200: Paginated(Type.Ref('ApplicationStatusChange')), ...errorResponses([404, 422]) },
      },
    },
    async (request) => getApplicationHistory(app.ctx, principalOf(request).companyId, request.params.id, request.query),
  );
}

/**
 * The candidate routes that answer with the pipeline: a candidate's profile with their
 * applications, and the import (which may enter every candidate into a listing's pipeline). Served
 * here, so the applications module depends on the candidates module and not the reverse; the paths
 * and their OpenAPI stay the candidates' (tag Candidates, registered right after candidateRoutes).
 */
export async function candidateProfileRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/candidates/:id',
    {
      config: { auth: { scope: 'candidates:read' } },
      schema: {
        tags: candidateTags,
        operationId: 'getCandidate',
        summary: 'Get a candidate profile',
        description: "The full profile with a summary of the candidate's applications.",
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: { ...Type.Ref('CandidateProfile'), headers: { ETag: { type: 'string', description: 'Version of this representation (changes whenever the answer would)' } } }, ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const profile = await getCandidateProfile(app.ctx, principalOf(request).companyId, request.params.id);
      reply.header('ETag', entityTag(profile));
      return profile;
    },
  );

  app.post(
    '/public/v1/candidates/import',
    {
      config: { auth: { scope: 'candidates:write' } },
      // Rows' résumés in base64: up to 4/3 of the file limit together, beside the 1 MB of rows.
      bodyLimit: Math.ceil((app.deps.config.fileMaxBytes * 4) / 3) + 1024 * 1024,
      schema: {
        tags: candidateTags,
        operationId: 'importCandidates',
        summary: 'Import candidates',
        description: `Up to ${MAX_IMPORT_ROWS} candidates a request, upserted by email (without letter case): a new email creates a candidate (source IMPORTED, event candidate.created), a known one updates it (given fields replace the stored ones; optional fields left out keep theirs). All or nothing: one invalid row answers 422 with details naming it (e.g. \`candidates[3].email\`) and nothing is written; a repeated email within the request is invalid too. With \`jobListingId\` (an ACTIVE listing, else 409) every candidate also enters that listing's pipeline with source IMPORTED, unless already in it (event application.created for each new application). Answers one result per row, in request order. A row may carry \`resume\` (base64 or an https URL; at most ${MAX_IMPORT_RESUMES} rows of a request, all the base64 together within the body limit of 4/3 of FILE_MAX_BYTES plus 1 MB): stored as the candidate's RESUME file (tied to the new or existing application with \`jobListingId\`; \`resumeFileId\` in its result), with the checks of candidate files (413, 415, 422 naming the row); a refused résumé refuses the whole import and nothing is stored.`,
        body: ImportCandidatesBody,
        response: {
          200: Type.Ref('CandidateImportResult'),
          ...errorResponses([400, 409, 422]),
          413: { ...Type.Ref('ErrorEnvelope'), description: 'A résumé is larger than FILE_MAX_BYTES, or the body larger than its limit' },
          415: { ...Type.Ref('ErrorEnvelope'), description: 'A résumé is not an accepted type (decided from its bytes), or the body is not JSON' },
        },
      },
    },
    async (request) => importCandidates(app.ctx, principalOf(request), request.body, { maxFileBytes: app.deps.config.fileMaxBytes }),
  );
}

export { applicationSchemas };

/** In this order in the OpenAPI components, right after the candidates module's (candidateSchemas). */
export const candidateProfileSchemas = [CandidateApplication, CandidateProfile, ImportResult];
