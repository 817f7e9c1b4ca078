// The OpenAPI document's identity parts: the oauth2 and openIdConnect schemes, and the /settings
// operations (bearer only, the ApiKey schema, their errors), held to what the routes do.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let doc: {
  paths: Record<string, Record<string, { security?: Array<Record<string, string[]>>; responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> }>>;
  components: { securitySchemes: Record<string, Record<string, unknown>>; schemas: Record<string, { properties?: Record<string, unknown> }> };
};

beforeAll(async () => {
  t = await buildTestApp({ BASE_URL: 'https://api.example.com' });
  doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => t.close());

it('names the oauth2 (authorization code) and openIdConnect schemes with our endpoints and every scope', () => {
  const { oauth2, openIdConnect } = doc.components.securitySchemes;
  expect(oauth2).toMatchObject({
    type: 'oauth2',
    flows: {
      authorizationCode: {
        authorizationUrl: 'https://api.example.com/oauth2/authorize',
        tokenUrl: 'https://api.example.com/oauth2/token',
      },
    },
  });
  const scopes = Object.keys((oauth2.flows as { authorizationCode: { scopes: object } }).authorizationCode.scopes);
  expect(scopes).toEqual(expect.arrayContaining(['openid', 'profile', 'email', 'jobs:read', 'analytics:read']));
  expect(openIdConnect).toMatchObject({ type: 'openIdConnect', openIdConnectUrl: 'https://api.example.com/oauth2/.well-known/openid-configuration' });
});

it('documents /settings/api-keys: bearer only, the ApiKey schema, 201 with rawKey, 204 on revoke, 401/403 in the envelope', async () => {
  const collection = doc.paths['/settings/api-keys'];
  const item = doc.paths['/settings/api-keys/{id}'];
  for (const op of [collection.get, collection.post, item.patch, item.delete]) {
    expect(op.security!.map((entry) => Object.keys(entry)[0])).toEqual(['oauth2']);
    expect(op.responses['401'].content!['application/json'].schema!.$ref).toBe('#/components/schemas/ErrorEnvelope');
  }
  for (const op of [collection.post, item.patch, item.delete]) expect(op.responses['403']).toBeDefined();
  expect(collection.post.responses['201'].content!['application/json'].schema!.$ref).toBe('#/components/schemas/ApiKeyCreated');
  expect(item.patch.responses['200'].content!['application/json'].schema!.$ref).toBe('#/components/schemas/ApiKey');
  expect(item.delete.responses['204']).toBeDefined();
  expect(Object.keys(doc.components.schemas.ApiKey.properties!)).toEqual(
    expect.arrayContaining(['id', 'keyPrefix', 'label', 'scopes', 'createdAt', 'expiresAt', 'active', 'lastUsedAt']),
  );
  expect(doc.components.schemas.ApiKey.properties).not.toHaveProperty('rawKey');
  expect(doc.components.schemas.ApiKeyCreated.properties).toHaveProperty('rawKey');

  // And the routes do what the document says: 401 with a Bearer challenge, no /oauth2 internals listed.
  for (const [method, url] of [['GET', '/settings/api-keys'], ['POST', '/settings/api-keys'], ['PATCH', `/settings/api-keys/${crypto.randomUUID()}`], ['DELETE', `/settings/api-keys/${crypto.randomUUID()}`]] as const) {
    const res = await t.app.inject({ method, url });
    expect(res.statusCode, `${method} ${url}`).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="settings"');
  }
  expect(Object.keys(doc.paths).filter((path) => path.startsWith('/oauth2') || path.startsWith('/sign-in'))).toEqual([]);
});
