import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { auditActorOf } from '../../http/actor.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { CandidateExport } from './schemas.ts';
import { eraseCandidate, exportCandidate } from './service.ts';

const tags = ['Candidates'];
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export async function privacyRoutes(app: AppInstance): Promise<void> {
  app.delete(
    '/public/v1/candidates/:id',
    {
      config: { auth: { scope: 'candidates:write' } },
      schema: {
        tags,
        operationId: 'eraseCandidate',
        summary: 'Erase a candidate (personal data request)',
        description:
          "Erases the person, in one transaction: their name, e-mail, phone, headline, location, skills and links; their files (metadata and stored bytes); the cover letters and stage-move reasons of their applications; the notes written on them; and every copy kept in stored events, webhook delivery logs (bodies sent and answers received) and stored idempotent answers. Their applications stay, anonymized, so pipeline statistics keep their counts. Emits `candidate.erased` with ids only. Answers 204; the candidate answers 404 from then on (a second erasure too).",
        params: IdParams,
        response: { 204: Type.Null({ description: 'Erased' }), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await eraseCandidate(app.ctx, principal.companyId, request.params.id, await auditActorOf(app.ctx, principal));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/public/v1/candidates/:id/export',
    {
      config: { auth: { scope: 'candidates:read' } },
      schema: {
        tags,
        operationId: 'exportCandidate',
        summary: "Export a candidate's data (personal data request)",
        description:
          'Everything the service stores about the person, as one JSON document: the candidate, their applications with cover letters and full stage history, the notes on them, their files (metadata, with the path of each file\'s bytes), the stored events that name them, and the webhook deliveries that carried those events.',
        params: IdParams,
        response: { 200: Type.Ref('CandidateExport'), ...errorResponses([404, 422]) },
      },
    },
    async (request) => exportCandidate(app.ctx, principalOf(request).companyId, request.params.id),
  );
}

export const privacySchemas = [CandidateExport];
