// Who is calling, as the audit log records it: the signed-in person (their name, else their e-mail)
// or the API key (its label). Resolved by the routes of audited actions, once per request.
import type { Principal, ServiceContext } from '../shared/context.ts';
import type { AuditActor } from '../modules/audit/service.ts';
import { listApiKeys } from '../modules/api-keys/service.ts';
import { getUser } from '../modules/users/service.ts';

export async function auditActorOf(ctx: ServiceContext, principal: Principal): Promise<AuditActor> {
  if (principal.userId) {
    const user = await getUser(ctx, principal.userId);
    return { type: 'USER', id: principal.userId, label: user?.name || user?.email || 'user' };
  }
  const key = principal.apiKeyId ? (await listApiKeys(ctx, principal.companyId)).find((candidate) => candidate.id === principal.apiKeyId) : undefined;
  return { type: 'API_KEY', id: principal.apiKeyId, label: key?.label ?? 'API key' };
}
