// 405 with Allow on a known path called with a method it lacks (404 stays for unknown paths; both
// carry the rate limit headers), and
// one rule for query parameters on every operation: one the operation does not document is
// refused with 422 naming it (docs/decisions.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
});
afterAll(async () => t.close());

interface Operation {
  operationId: string;
  parameters?: Array<{ in: string; name: string; example?: string }>;
  requestBody?: { content: { 'application/json': { example?: unknown } } };
}

describe('405 Method Not Allowed', () => {
  it('answers 405 with Allow and the envelope on a known path with another method', async () => {
    const collection = await t.app.inject({ method: 'PUT', url: '/public/v1/job-listings', headers: tenant.headers });
    expect(collection.statusCode).toBe(405);
    expect(collection.headers.allow).toBe('GET, HEAD, POST');
    expect(collection.json()).toMatchObject({ status: 405, error: 'METHOD_NOT_ALLOWED', path: '/public/v1/job-listings' });
    expect(collection.headers['x-request-id']).toBeTruthy();

    const move = await t.app.inject({ method: 'GET', url: '/public/v1/job-listings/5f0c8a4e-2b7d-4c1e-9a3f-1d2e3f4a5b6c/publish?x=1' });
    expect(move.statusCode).toBe(405);
    expect(move.headers.allow).toBe('POST');

    const item = await t.app.inject({ method: 'POST', url: '/public/v1/webhooks/e1f2a3b4-c5d6-4e7f-8a9b-0c1d2e3f4a5b' });
    expect(item.statusCode).toBe(405);
    expect(item.headers.allow).toBe('DELETE, GET, HEAD, PATCH');
  });

  it('answers 405 with the exact Allow of the route that owns each path of the document, literal paths over templates', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const methodsOf = (item: Record<string, Operation>) => {
      const methods = Object.keys(item).filter((key) => key !== 'parameters').map((key) => key.toUpperCase());
      return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
    };
    // Literal paths a template of the same length also matches: the router takes the template for
    // the methods the literal path lacks.
    const segments = (path: string) => path.split('/');
    const overlaps = Object.keys(doc.paths).filter((literal) =>
      Object.keys(doc.paths).some(
        (template) =>
          template !== literal &&
          segments(template).length === segments(literal).length &&
          segments(template).every((s, i) => s === segments(literal)[i] || (s.startsWith('{') && !segments(literal)[i].startsWith('{'))),
      ),
    );
    expect(overlaps).toEqual(expect.arrayContaining(['/public/v1/candidates/import', '/settings/members/invitations']));

    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      let url = path;
      for (const op of Object.values(item)) {
        for (const parameter of op.parameters ?? []) if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, parameter.example!);
      }
      const allowed = methodsOf(item);
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => !allowed.includes(m))) {
        // With and without a credential: the path's methods do not depend on who asks.
        for (const headers of overlaps.includes(path) ? [tenant.headers, {}] : [tenant.headers]) {
          const res = await t.app.inject({ method: method as 'GET', url, headers });
          expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(405);
          expect(res.headers.allow, `${method} ${url}`).toBe([...allowed].sort().join(', '));
          if (method !== 'HEAD') expect(res.json()).toMatchObject({ status: 405, error: 'METHOD_NOT_ALLOWED', path: url });
          expect(res.headers['ratelimit-policy'], `${method} ${url}`).toBeTruthy();
          expect(res.headers.ratelimit, `${method} ${url}`).toMatch(/^"per-key";r=\d+;t=\d+$/);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(80);
  });

  it('still routes a template when the path is not a literal route', async () => {
    const res = await t.app.inject({ url: '/public/v1/candidates/imports', headers: tenant.headers });
    expect(res.statusCode).toBe(422);
    const member = await t.app.inject({ method: 'DELETE', url: '/settings/members/invitation', headers: tenant.headers });
    expect(member.statusCode).not.toBe(405);
  });

  it('keeps 404 for a path no route has', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    expect((await t.app.inject({ method: 'DELETE', url: '/public/v1/job-listings/a/b/c' })).statusCode).toBe(404);
  });

  it('carries the rate limit headers on a 404, and counts it', async () => {
    const first = await t.app.inject({ url: '/public/v1/nothing-here', headers: tenant.headers });
    expect(first.statusCode).toBe(404);
    expect(first.headers['ratelimit-policy']).toMatch(/^"per-key";q=\d+;w=60$/);
    const remaining = (res: { headers: Record<string, unknown> }) => Number(/r=(\d+)/.exec(String(res.headers.ratelimit))![1]);
    const second = await t.app.inject({ url: '/nothing-at-all', headers: tenant.headers });
    expect(second.statusCode).toBe(404);
    expect(remaining(second)).toBe(remaining(first) - 1);
    const anonymous = await t.app.inject({ url: '/nothing-at-all' });
    expect(anonymous.headers['ratelimit-policy']).toBeTruthy();
    expect(anonymous.headers.ratelimit).toBeTruthy();
  });
});

describe('unknown query parameters', () => {
  it('are refused with 422 naming them, on every /public/v1 operation of the document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    let checked = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith('/public/v1/')) continue;
      for (const [method, op] of Object.entries(item)) {
        let url = path;
        for (const parameter of op.parameters ?? []) if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, parameter.example!);
        const example = op.requestBody?.content['application/json'].example;
        const res = await t.app.inject({
          method: method.toUpperCase() as 'GET',
          url: `${url}?stauts=ACTIVE`,
          headers: tenant.headers,
          ...(example !== undefined ? { payload: example as object } : {}),
        });
        expect(res.statusCode, `${op.operationId}: ${res.body}`).toBe(422);
        const details = res.json().details as Array<{ field: string; message: string }>;
        expect(details.map((d) => d.field), op.operationId).toContain('stauts');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
  });

  it('documented parameters still work', async () => {
    const res = await t.app.inject({ url: '/public/v1/job-listings?status=ACTIVE&page=0&size=5', headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/public/v1/sectors', headers: tenant.headers })).statusCode).toBe(200);
  });
});
