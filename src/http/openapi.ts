// The OpenAPI 3.1 document is generated from the same route schemas that validate requests, so
// the two cannot drift. Served at /openapi.json; a reference UI (served locally, no CDN) at /docs.
import swagger from '@fastify/swagger';
import apiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { SCOPES } from '../modules/api-keys/scopes.ts';
import { API_KEY_SCHEME, OAUTH_SCHEME, OIDC_SCHEME } from './auth.ts';
import { OIDC_SCOPES } from '../modules/oauth/service.ts';
import { finishDocument } from './openapi-finish.ts';

const DESCRIPTION = `Recruiting platform public API: job listings, applications, candidates, reference data and webhooks.

**Authentication.** Send an API key in the \`X-API-Key\` header, or a signed-in user's OAuth 2.0 access token as
\`Authorization: Bearer <token>\` (authorization code flow with PKCE at \`/oauth2\`; see the \`oauth2\` and
\`openIdConnect\` schemes). Each operation names the scope it needs; a missing, invalid, expired or revoked key or
token answers 401 (with \`WWW-Authenticate\` offering both schemes), a credential without the scope 403. The
first-party dashboard's tokens carry every scope; another application's token carries the API scopes the user
granted it. \`/settings/*\` takes only a user's token.

**Scopes.**
${Object.entries(SCOPES)
  .map(([scope, grants]) => `- \`${scope}\`: ${grants}`)
  .join('\n')}

**Errors.** Every error answers the same envelope: \`status\`, \`error\` (a code such as VALIDATION_ERROR),
\`message\`, \`timestamp\`, \`path\`, and on validation errors \`details\` with one \`{ field, message }\` per failing field.
Unknown body fields are refused (422). A body that is not JSON answers 415, over 1 MB 413.

**Pagination.** List endpoints take \`page\` (zero-based, default 0) and \`size\` (1 to 100, default 20) and answer
\`{ data, pagination: { page, size, totalElements, totalPages } }\`, newest first. A page past the end is an empty 200.

**Tenancy.** A key sees only its own company's data; another company's id answers 404, exactly like an id that does not exist.

**Methods.** A path of this document called with a method it does not have answers 405 \`METHOD_NOT_ALLOWED\` with \`Allow\` listing
that path's methods (a literal path such as \`/public/v1/candidates/import\` is never taken for \`/public/v1/candidates/{id}\`); a path
it does not have answers 404. Both carry \`RateLimit\` and \`RateLimit-Policy\`, like every answer of the API.

**Conditional GET.** An operation that answers an \`ETag\` answers 304 Not Modified, with the ETag and no body, when
\`If-None-Match\` names it (weak comparison; \`*\` or a comma-separated list allowed): keep what you read and revalidate it.`;

/** Operation groups, in the order the reference shows them. */
export const TAGS = [
  { name: 'Job listings', description: 'Create, edit and move job listings through their lifecycle (DRAFT, ACTIVE, UNDER_REVIEW, CLOSED, ARCHIVED), in several languages.' },
  { name: 'Applications', description: 'Applications to job listings and their moves through the hiring pipeline, with the history of every move.' },
  { name: 'Rejection reasons', description: "The company's list of reasons a move to REJECTED or WITHDRAWN gives: seeded with a default set, edited, archived; the history, the event and the analytics overview carry them." },
  { name: 'Candidates', description: 'The people who applied or were imported, searchable, with their applications.' },
  { name: 'Notes', description: 'Notes on candidates and their applications: plain text, visible to the whole company; only the author edits, the author or an ADMIN deletes.' },
  { name: 'Activity', description: 'The timeline of a candidate or an application: applied, stage moves, notes, files, imports, erasure; newest first, by cursor.' },
  { name: 'Reference data', description: 'Sectors, tags and the allowed values of enumerated fields: what listings refer to.' },
  { name: 'Analytics', description: 'Hiring funnel and time-to-hire figures of the company.' },
  { name: 'Webhooks', description: 'Subscriptions that receive events as signed HTTP POSTs (Standard Webhooks), their deliveries, retries and redelivery. The events themselves are in the `webhooks` section.' },
  { name: 'Events', description: "The company's events as a feed (cursor, type and since filters), kept at least 30 days, deletions included: how a receiver that was down catches up." },
  { name: 'Job board', description: "A company's public job board: its open listings and applications to them, with no key (readable from any site, cacheable). A company sets it up under /settings/company/board." },
  { name: 'Company', description: "The company's own settings: name, default language, whether listings need review and whether rejecting needs a reason (a signed-in user's dashboard token only)." },
  { name: 'Listing review', description: "Approve or reject listings waiting for review (UNDER_REVIEW), by a company ADMIN (a signed-in user's dashboard token only)." },
  { name: 'API keys', description: "The company's API keys (a signed-in user's dashboard token only)." },
  { name: 'Members', description: "The company's members and invitations (a signed-in user's dashboard token only)." },
];

/**
 * Who publishes the API and under which terms. Placeholders until the owner sets real ones: the
 * contact and license the document names (change them here; `npm run generate` updates the copy).
 */
export const API_INFO = {
  version: '1.0.0',
  contact: { name: 'Recruiting API support', email: 'api-support@recruiting.example', url: 'https://recruiting.example/support' },
  license: { name: 'Proprietary', url: 'https://recruiting.example/terms' },
};

/**
 * The reference page at /docs works offline: its script comes from this server (never a CDN), no
 * web fonts are fetched (the system font stack instead of Inter from fonts.scalar.com), and the
 * buttons and features that need Scalar's cloud (the hosted API client, the AI agent, MCP, the
 * request proxy, telemetry, developer tools) are off; "Test request" calls this server directly.
 * The page's Content-Security-Policy (security-headers.ts) allows only this origin besides.
 */
export const DOCS_CONFIGURATION = (baseUrl: string) => ({
  url: '/openapi.json',
  title: 'Recruiting Public API',
  withDefaultFonts: false,
  hideClientButton: true,
  showDeveloperTools: 'never' as const,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: 'json' as const,
  baseServerURL: baseUrl,
  externalUrls: { dashboardUrl: baseUrl, registryUrl: baseUrl, proxyUrl: baseUrl, apiBaseUrl: baseUrl },
});

/** `events`: the OpenAPI 3.1 `webhooks` section and its event schemas (from the webhooks module). */
export async function registerOpenApi(
  app: FastifyInstance,
  config: Config,
  events: { webhooks: Record<string, unknown>; schemas: Record<string, unknown> },
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Recruiting Public API', description: DESCRIPTION, ...API_INFO },
      servers: [{ url: config.baseUrl, description: 'This server' }],
      tags: TAGS,
      // Every operation names its own requirement (ApiKeyAuth, or oauth2 with the scope); this is
      // the default for anything that does not, and where openIdConnect (the same tokens, found by
      // discovery) is named.
      security: [{ [API_KEY_SCHEME]: [] }, { [OAUTH_SCHEME]: [] }, { [OIDC_SCHEME]: [] }],
      webhooks: events.webhooks as never,
      components: {
        securitySchemes: {
          [API_KEY_SCHEME]: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'API key (rk_live_...). The scopes listed on an operation are the key scopes it needs.',
          },
          [OAUTH_SCHEME]: {
            type: 'oauth2',
            description:
              'A signed-in user\'s access token (opaque, 15 minutes) as `Authorization: Bearer`. Authorization code flow, PKCE (S256) required; refresh tokens rotate (30 days).',
            flows: {
              authorizationCode: {
                authorizationUrl: `${config.baseUrl}/oauth2/authorize`,
                tokenUrl: `${config.baseUrl}/oauth2/token`,
                refreshUrl: `${config.baseUrl}/oauth2/token`,
                scopes: { ...OIDC_SCOPES, ...SCOPES },
              },
            },
          },
          [OIDC_SCHEME]: {
            type: 'openIdConnect',
            openIdConnectUrl: `${config.baseUrl}/oauth2/.well-known/openid-configuration`,
            description: 'The same tokens, found by OpenID Connect discovery.',
          },
        },
      },
    },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: object }).openapiObject, { schemas: events.schemas }),
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
    configuration: DOCS_CONFIGURATION(config.baseUrl),
    logLevel: 'warn',
  });
}
