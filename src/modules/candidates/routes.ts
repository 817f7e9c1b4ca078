import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { entityTag } from '../../shared/etag.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { CandidateApplication, CandidateProfile } from '../applications/schemas.ts';
import { Candidate, CandidateListQuery, CandidateSummary, ImportCandidatesBody, ImportResult, MAX_IMPORT_ROWS } from './schemas.ts';
import { getCandidateProfile, importCandidates } from '../applications/service.ts';
import { listCandidates } from './service.ts';

const tags = ['Candidates'];

export async function candidateRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/candidates',
    {
      config: { auth: { scope: 'candidates:read' } },
      schema: {
        tags,
        operationId: 'listCandidates',
        summary: 'List and search candidates',
        description:
          'Newest first; with `q`, most relevant first (name and email weigh most, then headline and skills).',
        querystring: CandidateListQuery,
        response: { 200: Paginated(Type.Ref('Candidate')), ...errorResponses([422]) },
      },
    },
    async (request) => listCandidates(app.ctx, principalOf(request).companyId, request.query),
  );

  app.get(
    '/public/v1/candidates/:id',
    {
      config: { auth: { scope: 'candidates:read' } },
      schema: {
        tags,
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
      schema: {
        tags,
        operationId: 'importCandidates',
        summary: 'Import candidates',
        description: `Up to ${MAX_IMPORT_ROWS} candidates a request, upserted by email (without letter case): a new email creates a candidate (source IMPORTED, event candidate.created), a known one updates it (given fields replace the stored ones; optional fields left out keep theirs). All or nothing: one invalid row answers 422 with details naming it (e.g. \`candidates[3].email\`) and nothing is written; a repeated email within the request is invalid too. With \`jobListingId\` (an ACTIVE listing, else 409) every candidate also enters that listing's pipeline with source IMPORTED, unless already in it (event application.created for each new application). Answers one result per row, in request order.`,
        body: ImportCandidatesBody,
        response: { 200: Type.Ref('CandidateImportResult'), ...errorResponses([400, 409, 413, 422]) },
      },
    },
    async (request) => importCandidates(app.ctx, principalOf(request), request.body),
  );
}

/** In this order in the OpenAPI components; the profile's parts are the applications module's. */
export const candidateSchemas = [CandidateSummary, Candidate, CandidateApplication, CandidateProfile, ImportResult];
