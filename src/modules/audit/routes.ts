// /settings/audit-log: the company's audit log, for its ADMINs (a person's access token, as the
// other /settings routes; an API key cannot read it).
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import { AuditLogQuery } from './schemas.ts';
import { AUDIT_ACTION_NAMES, listAuditLog } from './service.ts';

const tags = ['Audit log'];
const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;

export async function auditRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/settings/audit-log',
    {
      config: { auth: adminOnly },
      schema: {
        tags,
        operationId: 'listAuditLog',
        summary: "Read the company's audit log",
        description: [
          'Who did what and when, newest first: API keys created, renamed and revoked; members invited, invitations cancelled, members removed; webhook subscriptions created, changed, their secret rotated, deleted; job listings published (by publishing, approving or reopening); candidates erased.',
          `Each entry is written by the action's own transaction and kept for good (not only the 30 days of the event feed). Filters: \`action\` (comma-separated: ${AUDIT_ACTION_NAMES.join(', ')}), \`actorId\` (a user or API key id), \`from\` (inclusive) and \`to\` (exclusive). Read further pages by \`cursor\` with the same filters. ADMIN only (403 for a MEMBER); an API key cannot read it (401).`,
        ].join('\n\n'),
        querystring: AuditLogQuery,
        response: { 200: Paginated(Type.Ref('AuditEntry')), ...errorResponses([422]) },
      },
    },
    async (request) => listAuditLog(app.ctx, principalOf(request).companyId, request.query),
  );
}
