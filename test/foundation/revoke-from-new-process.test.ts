// A key revoked by a process that has only just started (as `npm run cli -- api-key revoke` is) is
// refused by a running server on its very next request: the revoking process answers only once its
// own LISTEN heard the change, so it first waits until it listens at all.
// PostgreSQL only: the embedded database is one process, with no second one to revoke from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { buildDeps } from '../../src/deps.ts';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/service.ts';
import { buildTestApp, TEST_ENCRYPTION_KEY, type TestApp } from '../helpers/test-app.ts';

describe.skipIf(!process.env.DATABASE_URL)('revoking from a process that has just started (PostgreSQL only)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the running server refuses the key on the next request, every time', async () => {
    const { companyId } = await t.tenant();
    const config = loadConfig({ DATABASE_URL: t.databaseUrl!, ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, SEED_DEMO: 'false', LOG_LEVEL: 'silent' });
    for (let round = 0; round < 12; round++) {
      const { rawKey, id } = await createApiKey(t.ctx, { companyId, label: `round ${round}`, scopes: ['jobs:read'] });
      const get = () => t.app.inject({ method: 'GET', url: '/public/v1/enums', headers: { 'x-api-key': rawKey } });
      // Twice: the second answer comes from the server's cache.
      expect((await get()).statusCode).toBe(200);
      expect((await get()).statusCode).toBe(200);

      const fresh = await buildDeps(config);
      try {
        await revokeApiKey(fresh.ctx, undefined, id);
      } finally {
        await fresh.close();
      }
      const after = await get();
      expect(after.statusCode, `round ${round}`).toBe(401);
      expect(after.json().message).toMatch(/revoked/);
    }
  });
});
