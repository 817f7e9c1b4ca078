// /settings/sample-data: "Explore with sample data" for a signed-in person's company (the
// dashboard's token, as the other /settings routes; an API key cannot call it). Any member reads
// whether it is there; only an ADMIN adds or removes it.
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { fillSampleData, getSampleData, removeSampleData } from './service.ts';

const tags = ['Company'];
const anyMember = { scope: null, bearerOnly: true } as const;
const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;

export async function sampleDataRoutes(app: AppInstance): Promise<void> {
  const offered = app.deps.config.sampleData;

  app.get(
    '/settings/sample-data',
    {
      config: { auth: anyMember },
      schema: {
        tags,
        operationId: 'getSampleData',
        summary: 'Read whether the company has sample data',
        description: '`offered` says whether this server adds sample data at all (by default only in development mode on the embedded database).',
        response: { 200: Type.Ref('SampleData') },
      },
    },
    async (request) => getSampleData(app.ctx, principalOf(request).companyId, offered),
  );

  app.post(
    '/settings/sample-data',
    {
      config: { auth: adminOnly },
      schema: {
        tags,
        operationId: 'addSampleData',
        summary: 'Fill the company with sample data',
        description: [
          "Adds a realistic pipeline to the caller's company: six job listings (two ACTIVE with translations, a draft, a closed and an archived one), 28 candidates with applications in every stage spread over the last six weeks, rejections and withdrawals with the company's reasons, and notes written by the caller. Made through the same services as the API's own writes, so lists, search, the analytics overview and the event feed show it; no webhook is sent for it.",
          '403 when this server does not offer sample data (`offered` false: production mode, or PostgreSQL unless SAMPLE_DATA=true); 409 when the company has sample data already, or candidates with the sample\'s e-mail addresses. Remove it with DELETE.',
        ].join('\n\n'),
        response: { 201: Type.Ref('SampleData'), ...errorResponses([409]) },
      },
    },
    async (request, reply) => reply.status(201).send(await fillSampleData(app.ctx, principalOf(request), offered)),
  );

  app.delete(
    '/settings/sample-data',
    {
      config: { auth: adminOnly },
      schema: {
        tags,
        operationId: 'removeSampleData',
        summary: "Remove the company's sample data",
        description:
          'Deletes for good the sample listings and candidates, every application in a sample listing or of a sample candidate (with its history, notes and files), and the events naming them; nothing the company made itself. Counts, analytics and search totals are as before the sample data was added. 404 when the company has no sample data.',
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses([404]) },
      },
    },
    async (request, reply) => {
      await removeSampleData(app.ctx, principalOf(request).companyId);
      return reply.status(204).send(null);
    },
  );
}
