import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { Candidate, CandidateListQuery, CandidateSummary } from './schemas.ts';
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
          'Newest first; with `q`, most relevant first (name and email weigh most, then headline and skills, then the words of the candidate\'s files).',
        querystring: CandidateListQuery,
        response: { 200: Paginated(Type.Ref('Candidate')), ...errorResponses([422]) },
      },
    },
    async (request) => listCandidates(app.ctx, principalOf(request).companyId, request.query),
  );
}

/**
 * In this order in the OpenAPI components. A candidate's profile (with their applications) and the
 * import (into a listing's pipeline) are served by the applications module (candidateProfileRoutes),
 * which depends on this one and not the reverse; their schemas follow these.
 */
export const candidateSchemas = [CandidateSummary, Candidate];
