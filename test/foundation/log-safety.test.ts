// Secrets and personal data never reach the logs: a failed INSERT is logged with its statement and
// error code, but not the values it carried (a whsec_ signing secret, an e-mail address).
// (test/helpers/global-setup.ts also scans every log line the whole suite wrote for secrets.)
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AppInstance } from '../../src/http/app-instance.ts';
import { principalOf } from '../../src/http/auth.ts';
import { candidates } from '../../src/modules/candidates/tables.ts';
import { webhookSubscriptions } from '../../src/modules/webhooks/tables.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const EMAIL = 'ada.lovelace@example.com';

let t: TestApp;
const lines: string[] = [];

function testRoutes(app: AppInstance) {
  // Two real failed INSERTs through Drizzle: a subscription whose id is taken (its secret is one
  // of the statement's parameters) and a candidate whose e-mail is taken (PostgreSQL's error
  // detail names the e-mail too).
  app.post('/public/v1/test-failing-subscription', { config: { auth: { scope: 'webhooks:manage' } } }, async (request) => {
    const { companyId } = principalOf(request);
    const row = {
      id: randomUUID(),
      companyId,
      url: `https://hooks.example.com/${EMAIL}`,
      events: ['candidate.created'],
      active: true,
      secret: SECRET,
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    await app.ctx.db.insert(webhookSubscriptions).values(row);
    await app.ctx.db.insert(webhookSubscriptions).values(row);
    return {};
  });
  app.post('/public/v1/test-failing-candidate', { config: { auth: { scope: 'candidates:write' } } }, async (request) => {
    const { companyId } = principalOf(request);
    const row = () => ({
      id: randomUUID(),
      companyId,
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: EMAIL,
      skills: [],
      links: [],
      source: 'API',
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await app.ctx.db.insert(candidates).values(row());
    await app.ctx.db.insert(candidates).values(row());
    return {};
  });
}

beforeAll(async () => {
  t = await buildTestApp(
    { LOG_LEVEL: 'info' },
    { configure: testRoutes, logStream: { write: (line: string) => void lines.push(line) } },
  );
});
afterAll(async () => t.close());

it('logs a failed INSERT with its statement and code, without the secret or the e-mail it carried', async () => {
  const tenant = await t.tenant();
  const bearer = `Bearer ${randomUUID()}`;
  for (const url of ['/public/v1/test-failing-subscription', '/public/v1/test-failing-candidate']) {
    const res = await t.app.inject({ method: 'POST', url, headers: tenant.headers });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ error: 'INTERNAL_ERROR', message: 'Internal server error' });
  }
  // A bearer token (here an unknown one: 401) is not logged either.
  const refused = await t.app.inject({ method: 'GET', url: '/public/v1/enums', headers: { authorization: bearer } });
  expect(refused.statusCode).toBe(401);
  const errors = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'unhandled error');
  expect(errors).toHaveLength(2);
  const all = lines.join('');
  expect(all).not.toContain(SECRET.slice(0, 20));
  expect(all).not.toContain(EMAIL);
  expect(all).not.toContain(tenant.apiKey);
  expect(all).not.toContain(bearer);
  // Still useful to an operator: the statement, the SQLSTATE, the constraint.
  expect(errors[0].err).toMatchObject({ message: expect.stringContaining('insert into "webhook_subscriptions"') });
  expect(errors[1].err).toMatchObject({ cause: expect.objectContaining({ code: '23505' }) });
});
