// 405 with Allow on a known path called with a method it lacks (404 stays for unknown paths), and
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

  it('keeps 404 for a path no route has', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    expect((await t.app.inject({ method: 'DELETE', url: '/public/v1/job-listings/a/b/c' })).statusCode).toBe(404);
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
