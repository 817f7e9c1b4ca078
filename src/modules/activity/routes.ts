import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { ActivityPage, ActivityQuery, activitySchemas, IdParams } from './schemas.ts';
import { applicationActivity, candidateActivity } from './service.ts';

const tags = ['Activity'];
const read = { auth: { scope: 'candidates:read' as const } };

const ORDER_NOTE =
  'Newest first (entries of the same time in a fixed order), by cursor: pages read by `cursor` never repeat or skip an entry. Built from what is recorded: the stage history and the notes are kept for good; files and erasure come from the recorded events, kept 30 days by default (RETENTION_EVENTS_DAYS; older ones are no longer listed).';

export async function activityRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/public/v1/candidates/:id/activity',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listCandidateActivity',
        summary: "A candidate's activity timeline",
        description: `Everything that happened to the candidate: added (source IMPORTED for an import), applied, stage moves with who and why, notes written, edited and deleted, files added and removed. ${ORDER_NOTE} 404 for an unknown or erased candidate (their applications' timelines show the erasure).`,
        params: IdParams,
        querystring: ActivityQuery,
        response: { 200: ActivityPage, ...errorResponses([404, 422]) },
      },
    },
    async (request) => candidateActivity(app.ctx, principalOf(request).companyId, request.params.id, request.query),
  );

  app.get(
    '/public/v1/applications/:id/activity',
    {
      config: read,
      schema: {
        tags,
        operationId: 'listApplicationActivity',
        summary: "An application's activity timeline",
        description: `What happened to the application: applied, stage moves with who and why, the notes written on it, its files, and its candidate's erasure. Needs candidates:read, as its notes do. ${ORDER_NOTE} 404 for an unknown application.`,
        params: IdParams,
        querystring: ActivityQuery,
        response: { 200: ActivityPage, ...errorResponses([404, 422]) },
      },
    },
    async (request) => applicationActivity(app.ctx, principalOf(request).companyId, request.params.id, request.query),
  );
}

export { activitySchemas };
