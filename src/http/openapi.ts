// The OpenAPI 3.1 document is generated from the same route schemas that validate requests, so
// the two cannot drift. Served at /openapi.json; a reference UI (served locally, no CDN) at /docs.
import swagger from '@fastify/swagger';
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { SCOPES } from '../modules/api-keys/scopes.ts';
import { API_KEY_SCHEME } from './auth.ts';

const DESCRIPTION = `Recruiting platform public API: job listings, applications, candidates, reference data and webhooks.

**Authentication.** Send an API key in the \`X-API-Key\` header. Each operation names the scope it needs;
a missing, invalid, expired or revoked key answers 401 (with \`WWW-Authenticate\`), a key without the scope 403.

**Scopes.**
${Object.entries(SCOPES)
  .map(([scope, grants]) => `- \`${scope}\`: ${grants}`)
  .join('\n')}

**Errors.** Every error answers the same envelope: \`status\`, \`error\` (a code such as VALIDATION_ERROR),
\`message\`, \`timestamp\`, \`path\`, and on validation errors \`details\` with one \`{ field, message }\` per failing field.
Unknown body fields are refused (422). A body that is not JSON answers 415, over 1 MB 413.

**Pagination.** List endpoints take \`page\` (zero-based, default 0) and \`size\` (1 to 100, default 20) and answer
\`{ data, pagination: { page, size, totalElements, totalPages } }\`, newest first. A page past the end is an empty 200.

**Tenancy.** A key sees only its own company's data; another company's id answers 404, exactly like an id that does not exist.`;

/** `webhooks`: the OpenAPI 3.1 section describing the requests this service sends (from the webhooks module). */
export async function registerOpenApi(
  app: FastifyInstance,
  config: Config,
  documents: { webhooks: Record<string, unknown> },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Recruiting Public API', version: '1.0.0', description: DESCRIPTION },
      servers: [{ url: config.baseUrl }],
      webhooks: documents.webhooks as never,
      components: {
        securitySchemes: {
          [API_KEY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'API key (rk_live_...). The scopes listed on an operation are the key scopes it needs.',
          },
        },
      },
    },
    // Name components after their $id (ErrorEnvelope, JobListing...) rather than def-0, def-1.
    refResolver: {
      buildLocalReference(json, _baseUri, _fragment, i) {
        return typeof json.$id === 'string' ? json.$id : `def-${i}`;
      },
    },
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(apiReference, {
    routePrefix: '/docs',
    configuration: { url: '/openapi.json', title: 'Recruiting Public API' },
    logLevel: 'warn',
  });
}
