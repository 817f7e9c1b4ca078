// The OpenAPI document: valid 3.1, and for every operation (written generically, so it covers the
// routes every module adds) the security requirement, the scope, and the error envelope. The
// document is also held to the truth: each /public/v1 operation really answers 401 without a key
// and 403 with a key that lacks the documented scope.
import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES, type Scope } from '../../src/modules/api-keys/scopes.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

interface Operation {
  security?: Array<Record<string, string[]>>;
  'x-required-scope'?: string;
  description?: string;
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, unknown>> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const ENVELOPE_REF = '#/components/schemas/ErrorEnvelope';

let t: TestApp;
let doc: Document;
let operations: Array<{ path: string; method: string; op: Operation; name: string }>;

beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      path,
      method,
      op: item[method],
      name: `${method.toUpperCase()} ${path}`,
    })),
  );
});
afterAll(async () => t.close());

const publicOperations = () => operations.filter(({ path }) => path.startsWith('/public/v1/'));

/** The scope an operation documents: a scope name, or null for "any valid key". */
function scopeOf(op: Operation): Scope | null {
  return (op.security?.find((entry) => entry.oauth2)?.oauth2?.[0] as Scope | undefined) ?? null;
}

function expectEnvelopeResponse(op: Operation, status: number, name: string) {
  const response = op.responses[String(status)];
  expect(response, `${name} documents ${status}`).toBeDefined();
  expect(response.content?.['application/json']?.schema?.$ref, `${name} ${status} is the error envelope`).toBe(ENVELOPE_REF);
}

describe('OpenAPI document', () => {
  it('validates as OpenAPI 3.1 (every $ref resolves)', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('names the ApiKeyAuth security scheme: the X-API-Key header', () => {
    expect(doc.components.securitySchemes.ApiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
  });

  it('gives every /public/v1 operation the API key requirement or a bearer token, and at most one known scope, also named in its description', () => {
    expect(publicOperations().length).toBeGreaterThanOrEqual(3);
    for (const { op, name } of publicOperations()) {
      // Alternatives: an API key, or an OAuth access token. The scope is listed on the oauth2 entry
      // (linters accept scopes only where the scheme declares them) and in x-required-scope.
      expect(op.security!.map((entry) => Object.keys(entry)), name).toEqual([['ApiKeyAuth'], ['oauth2']]);
      expect(op.security![0].ApiKeyAuth, name).toEqual([]);
      const scopes = op.security![1].oauth2;
      expect(scopes.length, name).toBeLessThanOrEqual(1);
      expect(op['x-required-scope'], name).toEqual(scopes[0]);
      for (const scope of scopes) expect(ALL_SCOPES, name).toContain(scope);
      const scope = scopeOf(op);
      expect(op.description, name).toContain(scope ? `Requires scope \`${scope}\`` : 'Any valid API key');
    }
  });

  it('documents the error envelope on every operation: 401 (and 403 when scoped), 400/413/415/422 with a body, 422 with parameters, 500', () => {
    for (const { op, name, path } of operations) {
      expectEnvelopeResponse(op, 500, name);
      if (path.startsWith('/public/v1/')) {
        expectEnvelopeResponse(op, 401, name);
        if (scopeOf(op)) expectEnvelopeResponse(op, 403, name);
      }
      if (op.requestBody) for (const status of [400, 413, 415, 422]) expectEnvelopeResponse(op, status, name);
      if ((op.parameters ?? []).some((p) => p.in === 'query' || p.in === 'path')) expectEnvelopeResponse(op, 422, name);
      // Whatever else an operation documents as an error uses the same envelope.
      for (const status of Object.keys(op.responses).filter((s) => Number(s) >= 400)) {
        expectEnvelopeResponse(op, Number(status), name);
      }
    }
  });

  it('documents what the server answers before a route runs: 400/413/415 on every method that carries a body, 400/414 with path parameters, 409 on every POST (Idempotency-Key in progress)', async () => {
    for (const { op, name, method } of publicOperations()) {
      if (method !== 'get') for (const status of [400, 413, 415]) expectEnvelopeResponse(op, status, name);
      if ((op.parameters ?? []).some((p) => p.in === 'path')) for (const status of [400, 414]) expectEnvelopeResponse(op, status, name);
      if (method === 'post') expectEnvelopeResponse(op, 409, name);
      const idempotencyHeader = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'idempotency-key');
      expect(idempotencyHeader, `${name} documents Idempotency-Key only on POST`).toBe(method === 'post');
    }
    // And the server does answer them: a body-less POST with a body that is not JSON, too large
    // or malformed; a DELETE with a malformed body; a path that does not decode or is too long.
    const { headers } = await t.tenant();
    const url = `/public/v1/webhooks/${randomUUID()}/rotate-secret`;
    const post = (extra: Record<string, string>, payload: string) => t.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });
    expect((await post({ 'content-type': 'text/plain' }, 'hello')).statusCode).toBe(415);
    expect((await post({ 'content-type': 'application/json' }, '{')).statusCode).toBe(400);
    expect((await post({ 'content-type': 'application/json' }, `"${'x'.repeat(1024 * 1024)}"`)).statusCode).toBe(413);
    const del = await t.app.inject({ method: 'DELETE', url: `/public/v1/webhooks/${randomUUID()}`, headers: { ...headers, 'content-type': 'application/json' }, payload: '{' });
    expect(del.statusCode).toBe(400);
    expect((await t.app.inject({ url: '/public/v1/candidates/%', headers })).statusCode).toBe(400);
    expect((await t.app.inject({ url: `/public/v1/candidates/${'a'.repeat(101)}`, headers })).statusCode).toBe(414);
  });

  it('matches what the routes do: 401 without a key, 403 naming the scope with a key that lacks it', async () => {
    const keys = new Map<Scope, string>();
    const { companyId } = await t.tenant(['analytics:read']);
    const keyWithout = async (scope: Scope) => {
      const other = ALL_SCOPES.find((s) => s !== scope)!;
      if (!keys.has(other)) keys.set(other, await t.keyFor(companyId, [other]));
      return keys.get(other)!;
    };
    for (const { path, method, op, name } of publicOperations()) {
      const url = path.replace(/\{[^}]+\}/g, () => randomUUID());
      const request = { method: method.toUpperCase() as 'GET', url };
      const anonymous = await t.app.inject(request);
      expect(anonymous.statusCode, name).toBe(401);
      expect(anonymous.headers['www-authenticate'], name).toBeDefined();
      expect(anonymous.json().error, name).toBe('UNAUTHORIZED');

      const scope = scopeOf(op);
      if (!scope) continue;
      const forbidden = await t.app.inject({ ...request, headers: { 'x-api-key': await keyWithout(scope) } });
      expect(forbidden.statusCode, name).toBe(403);
      expect(forbidden.json().error, name).toBe('FORBIDDEN');
      expect(JSON.stringify(forbidden.json().details), name).toContain(scope);
    }
  });
});

describe('API reference UI', () => {
  it('serves the reference page at /docs, with its script from this server, pointing at /openapi.json', async () => {
    const redirect = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([301, 302, 308]).toContain(redirect.statusCode);
    const pageUrl = new URL(redirect.headers.location as string, 'http://localhost/docs');
    const page = await t.app.inject({ method: 'GET', url: pageUrl.pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('/openapi.json');

    const scripts = [...page.body.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      const scriptUrl = new URL(src, pageUrl);
      expect(scriptUrl.host, `${src} is served locally, not from a CDN`).toBe('localhost');
      const script = await t.app.inject({ method: 'GET', url: scriptUrl.pathname });
      expect(script.statusCode, src).toBe(200);
    }
  });
});
