// /settings/api-keys: a signed-in user manages their company's keys. Bearer token only (an API key
// cannot mint keys); any member may list, only an ADMIN creates, renames or revokes.
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { auditActorOf } from '../../http/actor.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { CreateApiKeyBody, UpdateApiKeyBody } from './schemas.ts';
import { createApiKey, listApiKeys, relabelApiKey, revokeApiKey } from './service.ts';

const tags = ['API keys'];
const member = { scope: null, bearerOnly: true };
const admin = { scope: null, bearerOnly: true, role: 'ADMIN' as const };
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export async function apiKeyRoutes(app: AppInstance): Promise<void> {
  app.post(
    '/settings/api-keys',
    {
      config: { auth: admin },
      schema: {
        tags,
        operationId: 'createApiKey',
        summary: 'Create an API key',
        description: 'Answers the key with `rawKey`, the full key, shown only this once (only its hash is kept).',
        body: CreateApiKeyBody,
        response: { 201: Type.Ref('ApiKeyCreated'), ...errorResponses([400, 415, 422]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const created = await createApiKey(app.ctx, { companyId: principal.companyId, ...request.body }, await auditActorOf(app.ctx, principal));
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/settings/api-keys',
    {
      config: { auth: member },
      schema: {
        tags,
        operationId: 'listApiKeys',
        summary: "List the company's API keys",
        description: 'Newest first; revoked and expired keys with `active: false`. Never the key itself.',
        response: { 200: Type.Ref('ApiKeyList') },
      },
    },
    async (request) => ({ data: await listApiKeys(app.ctx, principalOf(request).companyId) }),
  );

  app.patch(
    '/settings/api-keys/:id',
    {
      config: { auth: admin },
      schema: {
        tags,
        operationId: 'updateApiKey',
        summary: "Change an API key's label",
        description: 'Only the label can change: a body with `scopes` answers 422 (scopes are immutable; revoke and create a new key).',
        params: IdParams,
        body: UpdateApiKeyBody,
        response: { 200: Type.Ref('ApiKey'), ...errorResponses([404]) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return relabelApiKey(app.ctx, principal.companyId, request.params.id, request.body as Record<string, unknown>, await auditActorOf(app.ctx, principal));
    },
  );

  app.delete(
    '/settings/api-keys/:id',
    {
      config: { auth: admin },
      schema: {
        tags,
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key',
        description: 'The key fails with 401 from its very next request, on every server. Revoking twice is harmless.',
        params: IdParams,
        response: { 204: Type.Null({ description: 'Revoked' }), ...errorResponses([404]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await revokeApiKey(app.ctx, principal.companyId, request.params.id, await auditActorOf(app.ctx, principal));
      return reply.status(204).send(null);
    },
  );
}
