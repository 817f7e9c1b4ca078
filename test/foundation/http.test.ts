// Cross-cutting HTTP behaviour, through the real app: the error envelope for every error the
// server produces, X-Request-Id, health and readiness, and the pagination helper. Test-only
// routes (registered through buildTestApp's configure) stand in for the module routes.
import { desc, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppInstance } from '../../src/http/app-instance.ts';
import { principalOf } from '../../src/http/auth.ts';
import { PageQuery, Paginated } from '../../src/http/pagination.ts';
import { toPage } from '../../src/shared/pagination.ts';
import { listApiKeys } from '../../src/modules/api-keys/service.ts';
import { apiKeys } from '../../src/modules/api-keys/tables.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SECRET = 'password=hunter2 at db.internal:5432';

function testRoutes(app: AppInstance): void {
  const Person = Type.Object(
    {
      name: Type.String({ minLength: 3, pattern: '^[a-z]+$' }),
      age: Type.Integer({ minimum: 0 }),
      email: Type.String({ format: 'email' }),
      nicknames: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  );
  app.post('/test/people', { schema: { body: Person } }, async (request) => request.body);

  app.get('/test/boom', async () => {
    throw new Error(`query failed: ${SECRET}`);
  });

  // A list endpoint as the modules write them: the caller's API keys, newest first.
  app.get(
    '/test/keys',
    {
      config: { auth: { scope: null } },
      schema: {
        querystring: Type.Object(PageQuery),
        response: { 200: Paginated(Type.Object({ id: Type.String(), createdAt: Type.String() })) },
      },
    },
    async (request) => {
      const { companyId } = principalOf(request);
      const { db } = app.ctx;
      const limit = request.query.size;
      const offset = request.query.page * request.query.size;
      const rows = await db
        .select({ id: apiKeys.id, createdAt: apiKeys.createdAt })
        .from(apiKeys)
        .where(eq(apiKeys.companyId, companyId))
        .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
        .limit(limit)
        .offset(offset);
      const total = await db.$count(apiKeys, eq(apiKeys.companyId, companyId));
      return toPage(
        rows.map((row) => ({ id: row.id, createdAt: row.createdAt.toISOString() })),
        total,
        request.query,
      );
    },
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({}, { configure: testRoutes });
});
afterAll(async () => t.close());

function postPeople(payload: string, contentType = 'application/json') {
  return t.app.inject({ method: 'POST', url: '/test/people', headers: { 'content-type': contentType }, payload });
}

const validPerson = { name: 'ada', age: 36, email: 'ada@example.com' };

describe('error envelope', () => {
  it('accepts a valid JSON body (with or without a charset)', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
      const res = await postPeople(JSON.stringify(validPerson), contentType);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(validPerson);
    }
  });

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await postPeople('{"name": "ada", ');
    expect(expectErrorEnvelope(res, 400, 'BAD_REQUEST', '/test/people').message).toBe('Malformed JSON body');
  });

  it('answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await postPeople(JSON.stringify({ ...validPerson, name: 'a'.repeat(1024 * 1024) }));
    expect(expectErrorEnvelope(res, 413, 'PAYLOAD_TOO_LARGE', '/test/people').message).toMatch(/larger than 1 MB/);
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const [contentType, payload] of [
      ['text/plain', 'ada, 36'],
      ['application/x-www-form-urlencoded', 'name=ada&age=36'],
      ['application/xml', '<person/>'],
    ]) {
      const res = await postPeople(payload, contentType);
      expect(res.statusCode, contentType).toBe(415);
      expect(expectErrorEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE', '/test/people').message).toMatch(/must be JSON/);
    }
  });

  it('answers an unknown route with the 404 envelope and a known path with another method with 405, before any key check', async () => {
    for (const [method, url] of [
      ['GET', '/public/v1/no-such-thing?page=2'],
      ['GET', '/nowhere'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(404);
      expectErrorEnvelope(res, 404, 'NOT_FOUND', url.split('?')[0]);
    }
    const wrongMethod = await t.app.inject({ method: 'DELETE', url: '/public/v1/enums' });
    expectErrorEnvelope(wrongMethod, 405, 'METHOD_NOT_ALLOWED', '/public/v1/enums');
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
  });

  it('answers a URL that does not decode with the 400 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/public/v1/sectors/%zz' });
    expectErrorEnvelope(res, 400, 'BAD_REQUEST', '/public/v1/sectors/%zz');
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('answers a server fault with 500 INTERNAL_ERROR and no internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/test/boom' });
    const body = expectErrorEnvelope(res, 500, 'INTERNAL_ERROR', '/test/boom');
    expect(body.message).toBe('Internal server error');
    expect(Object.keys(body).sort()).toEqual(['error', 'message', 'path', 'status', 'timestamp']);
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('db.internal');
    expect(res.body).not.toMatch(/\bat \S+:\d+/); // no stack frames
  });
});

describe('validation', () => {
  it('answers 422 with one details entry per failing field: unknown, missing and mistyped fields', async () => {
    const res = await postPeople(JSON.stringify({ name: 'A', age: '36', nicknames: ['x', 7], role: 'admin' }));
    const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/test/people');
    const details = body.details as Array<{ field: string; message: string }>;
    // "A" breaks both minLength and pattern: still one entry for the field.
    expect(details.map((detail) => detail.field).sort()).toEqual(['age', 'email', 'name', 'nicknames[1]', 'role']);
    const byField = Object.fromEntries(details.map((detail) => [detail.field, detail.message]));
    expect(byField.role).toBe('is not a known field');
    expect(byField.email).toBe('is required');
    expect(byField.age).toMatch(/integer/); // a JSON body is not coerced: "36" is not 36
    expect(byField['nicknames[1]']).toMatch(/string/);
  });

  it('names the query parameter that fails', async () => {
    const { headers } = await t.tenant();
    const res = await t.app.inject({ method: 'GET', url: '/test/keys?size=abc', headers });
    expect(expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/test/keys').details).toEqual([
      { field: 'size', message: expect.any(String) },
    ]);
  });
});

describe('X-Request-Id', () => {
  it('is on every response, success and error alike', async () => {
    const { headers } = await t.tenant();
    const requests = [
      { method: 'GET', url: '/healthz' },
      { method: 'GET', url: '/public/v1/enums', headers },
      { method: 'GET', url: '/public/v1/enums' }, // 401
      { method: 'GET', url: '/nowhere' }, // 404
      { method: 'GET', url: '/test/boom' }, // 500
      { method: 'POST', url: '/test/people', headers: { 'content-type': 'application/json' }, payload: '{' }, // 400
      { method: 'POST', url: '/test/people', headers: { 'content-type': 'text/plain' }, payload: 'x' }, // 415
      { method: 'POST', url: '/test/people', headers: { 'content-type': 'application/json' }, payload: '{}' }, // 422
    ] as const;
    for (const request of requests) {
      const res = await t.app.inject(request);
      expect(res.headers['x-request-id'], `${request.method} ${request.url} (${res.statusCode})`).toMatch(UUID);
    }
  });

  it("echoes a caller's safe id and replaces an unsafe one", async () => {
    const echo = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'trace-42_a.B' } });
    expect(echo.headers['x-request-id']).toBe('trace-42_a.B');
    const onError = await t.app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'trace-43' } });
    expect(onError.headers['x-request-id']).toBe('trace-43');

    for (const unsafe of ['two words', 'id\u00e9', '<script>', 'a'.repeat(129)]) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': unsafe } });
      expect(res.headers['x-request-id'], unsafe).toMatch(UUID);
    }
  });
});

describe('health', () => {
  it('answers /healthz and /readyz with 200 while the database answers', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  it('answers /readyz with 503 once the database is gone, while /healthz stays 200', async () => {
    const other = await buildTestApp();
    try {
      await other.database.close();
      const ready = await other.app.inject({ method: 'GET', url: '/readyz' });
      expectErrorEnvelope(ready, 503, 'SERVICE_UNAVAILABLE', '/readyz');
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('pagination', () => {
  const TOTAL = 45;
  let headers: Record<string, string>;
  let newestFirst: string[];

  beforeAll(async () => {
    const tenant = await t.tenant();
    headers = tenant.headers;
    for (let i = 1; i < TOTAL; i++) await t.keyFor(tenant.companyId, ['jobs:read']);
    await t.tenant(); // another company's keys are never counted
    newestFirst = (await listApiKeys(t.ctx, tenant.companyId)).map((key) => key.id);
    expect(newestFirst).toHaveLength(TOTAL);
  });

  function list(query: string) {
    return t.app.inject({ method: 'GET', url: `/test/keys${query}`, headers });
  }

  it('defaults to page 0 of 20, newest first', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.pagination).toEqual({ page: 0, size: 20, totalElements: TOTAL, totalPages: 3, nextCursor: null });
    expect(body.data.map((item: { id: string }) => item.id)).toEqual(newestFirst.slice(0, 20));
  });

  it('allows size 100', async () => {
    const res = await list('?size=100');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(TOTAL);
    expect(res.json().pagination).toEqual({ page: 0, size: 100, totalElements: TOTAL, totalPages: 1, nextCursor: null });
  });

  it('refuses sizes and pages out of bounds or not integers with 422 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['size=101', 'size'],
      ['size=0', 'size'],
      ['size=-1', 'size'],
      ['size=1.5', 'size'],
      ['size=abc', 'size'],
      ['page=-1', 'page'],
      ['page=0.5', 'page'],
      ['page=first', 'page'],
    ];
    for (const [query, field] of cases) {
      const res = await list(`?${query}`);
      expect(res.statusCode, query).toBe(422);
      const details = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', '/test/keys').details as Array<{ field: string }>;
      expect(details.map((detail) => detail.field), query).toEqual([field]);
    }
  });

  it('answers a page past the end with 200 and no data', async () => {
    for (const page of [3, 1000]) {
      const res = await list(`?page=${page}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: [], pagination: { page, size: 20, totalElements: TOTAL, totalPages: 3, nextCursor: null } });
    }
  });

  it('counts totalPages for the size asked', async () => {
    for (const size of [1, 7, 9, 15, 44, 45, 46, 100]) {
      const res = await list(`?size=${size}`);
      expect(res.json().pagination.totalPages, `size ${size}`).toBe(Math.ceil(TOTAL / size));
    }
  });

  it('returns every row exactly once, in order, to a client reading pages until page + 1 reaches totalPages', async () => {
    const seen: string[] = [];
    let page = 0;
    let totalPages: number;
    do {
      const body = (await list(`?page=${page}&size=7`)).json();
      seen.push(...body.data.map((item: { id: string }) => item.id));
      totalPages = body.pagination.totalPages;
      page++;
    } while (page < totalPages);
    expect(page).toBe(7);
    expect(seen).toEqual(newestFirst);
  });
});
