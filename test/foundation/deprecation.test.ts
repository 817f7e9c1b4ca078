// The deprecation mechanism (docs/versioning.md): an operation declared deprecated is marked so in
// the OpenAPI document, with its Deprecation and Sunset headers declared, and every answer to it
// (errors included) carries Deprecation, Sunset and a Link to the migration notes. Others do not.
import { Type } from 'typebox';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let tenant: Tenant;
beforeAll(async () => {
  t = await buildTestApp({}, {
    configure(app) {
      // A stand-in for an operation on its way out (no real one is deprecated yet).
      app.get(
        '/public/v1/old-sectors',
        {
          config: {
            auth: { scope: null },
            deprecation: { since: '2026-07-01', sunset: '2027-01-31', link: 'https://api.recruiting.example/docs#changelog' },
          },
          schema: { operationId: 'listOldSectors', summary: 'Old sectors', response: { 200: Type.Object({ ok: Type.Boolean() }) } },
        },
        async () => ({ ok: true }),
      );
    },
  });
  tenant = await t.tenant();
});
afterAll(async () => t.close());

it('answers a deprecated operation with Deprecation, Sunset and Link', async () => {
  const res = await t.app.inject({ url: '/public/v1/old-sectors', headers: tenant.headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers.deprecation).toBe(`@${Date.parse('2026-07-01') / 1000}`);
  expect(res.headers.sunset).toBe('Sun, 31 Jan 2027 00:00:00 GMT');
  expect(res.headers.link).toBe('<https://api.recruiting.example/docs#changelog>; rel="deprecation"; type="text/html"');
  // Errors too: a client that only ever sees 401s still learns.
  const unauthorized = await t.app.inject({ url: '/public/v1/old-sectors' });
  expect(unauthorized.statusCode).toBe(401);
  expect(unauthorized.headers.deprecation).toBeDefined();
});

it('leaves operations that are not deprecated alone', async () => {
  const res = await t.app.inject({ url: '/public/v1/sectors', headers: tenant.headers });
  expect(res.statusCode).toBe(200);
  expect(res.headers.deprecation).toBeUndefined();
  expect(res.headers.sunset).toBeUndefined();
});

it('marks it deprecated in the OpenAPI document, with the headers declared', async () => {
  const doc = (await t.app.inject({ url: '/openapi.json' })).json();
  const op = doc.paths['/public/v1/old-sectors'].get;
  expect(op.deprecated).toBe(true);
  expect(op.description).toContain('**Deprecated** since 2026-07-01');
  expect(op.responses['200'].headers.Deprecation).toEqual({ $ref: '#/components/headers/Deprecation' });
  expect(op.responses['200'].headers.Sunset).toEqual({ $ref: '#/components/headers/Sunset' });
  expect(doc.components.headers.Sunset).toBeDefined();
  expect(doc.paths['/public/v1/sectors'].get.deprecated).toBeUndefined();
});
