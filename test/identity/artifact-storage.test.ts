// How the authorization server's artifacts are kept: rows keyed by the SHA-256 of the artifact's id
// (for tokens, codes and sessions the id is the secret the client holds), payloads without a copy
// of it, registered clients under their public id; and rows stored before that (migration 0025).
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { readMigrations } from '../../src/db/migrate.ts';
import { databaseAdapter } from '../../src/modules/oauth/adapter.ts';
import { signInVerifiedUser } from '../../src/modules/users/service.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t?.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const token = () => randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '').slice(0, 11);

async function rowsHolding(value: string) {
  return queryRows<{ kind: string }>(t.ctx.db, sql`SELECT kind FROM oidc_payloads r WHERE strpos(r::text, ${value}) > 0`);
}

async function storedRow(kind: string, id: string) {
  const [row] = await queryRows<{ payload: Record<string, unknown> }>(t.ctx.db, sql`SELECT payload FROM oidc_payloads WHERE kind = ${kind} AND id = ${id}`);
  return row;
}

describe('authorization-server artifacts at rest', () => {
  it('keys each row by the hash of its id, keeps no copy of the id, and gives it back on reading', async () => {
    const Adapter = databaseAdapter(t.ctx);
    const accessToken = token();
    const sessionId = token();
    const interactionId = token();
    await new Adapter('AccessToken').upsert(accessToken, { jti: accessToken, kind: 'AccessToken', grantId: 'grant-1', accountId: 'a' } as never, 60);
    await new Adapter('Session').upsert(sessionId, { jti: sessionId, kind: 'Session', uid: 'session-uid-1', accountId: 'a' } as never, 60);
    await new Adapter('Interaction').upsert(
      interactionId,
      { jti: interactionId, kind: 'Interaction', session: { accountId: 'a', uid: 'session-uid-1', cookie: sessionId } } as never,
      60,
    );

    for (const value of [accessToken, sessionId, interactionId]) expect(await rowsHolding(value)).toEqual([]);
    expect((await storedRow('AccessToken', sha256(accessToken)))?.payload).toEqual({ kind: 'AccessToken', grantId: 'grant-1', accountId: 'a' });
    expect((await storedRow('Interaction', sha256(interactionId)))?.payload).toEqual({
      kind: 'Interaction',
      session: { accountId: 'a', uid: 'session-uid-1' },
    });

    expect(await new Adapter('AccessToken').find(accessToken)).toEqual({ jti: accessToken, kind: 'AccessToken', grantId: 'grant-1', accountId: 'a' });
    expect(await new Adapter('Session').find(sessionId)).toMatchObject({ jti: sessionId, uid: 'session-uid-1' });
    // Found by its uid (not a secret), a session comes without its id: only its hash is kept.
    expect(await new Adapter('Session').findByUid('session-uid-1')).toEqual({ kind: 'Session', uid: 'session-uid-1', accountId: 'a' });
    expect(await new Adapter('AccessToken').find(sha256(accessToken))).toBeUndefined();

    await new Adapter('AccessToken').destroy(accessToken);
    expect(await storedRow('AccessToken', sha256(accessToken))).toBeUndefined();
  });

  it('keeps a registered client under its client id (public, looked up by operators)', async () => {
    const Adapter = databaseAdapter(t.ctx);
    const clientId = `client_${randomUUID().replaceAll('-', '')}`;
    await new Adapter('Client').upsert(clientId, { client_id: clientId, client_name: 'Kept by id' } as never, 0);
    expect((await storedRow('Client', clientId))?.payload).toEqual({ client_id: clientId, client_name: 'Kept by id' });
    expect(await new Adapter('Client').find(clientId)).toEqual({ client_id: clientId, client_name: 'Kept by id' });
  });

  it('migration 0025 rewrites the rows stored before under the hash of their id, without the copies; they keep working', async () => {
    const user = await signInVerifiedUser(t.ctx, { email: `migrated-${randomUUID().slice(0, 8)}@example.com`, emailVerified: true });
    const accessToken = token();
    const grantId = token();
    const sessionId = token();
    const interactionId = token();
    const clientId = `client_${randomUUID().replaceAll('-', '')}`;
    const exp = Math.floor(t.clock.now().getTime() / 1000) + 600;
    const expiresAt = new Date(t.clock.now().getTime() + 600_000).toISOString();
    const rows: Array<[string, string, Record<string, unknown>, string | null, string | null]> = [
      ['AccessToken', accessToken, { jti: accessToken, kind: 'AccessToken', accountId: user.user.id, clientId: 'dashboard', grantId, scope: 'openid', exp }, grantId, null],
      ['Grant', grantId, { jti: grantId, kind: 'Grant', accountId: user.user.id, clientId: 'dashboard', exp }, null, null],
      ['Session', sessionId, { jti: sessionId, kind: 'Session', uid: 'uid-migrated', accountId: user.user.id, exp }, null, 'uid-migrated'],
      ['Interaction', interactionId, { jti: interactionId, kind: 'Interaction', session: { uid: 'uid-migrated', cookie: sessionId }, exp }, null, null],
      ['Client', clientId, { client_id: clientId, client_name: 'Old client' }, null, null],
    ];
    // As the previous release stored them: under the id itself, with copies of it in the payload.
    for (const [kind, id, payload, grant, uid] of rows) {
      await t.ctx.db.execute(
        sql`INSERT INTO oidc_payloads (kind, id, payload, grant_id, uid, expires_at)
            VALUES (${kind}, ${id}, ${JSON.stringify(payload)}::jsonb, ${grant}, ${uid}, ${kind === 'Client' ? null : expiresAt}::timestamptz)`,
      );
    }
    expect(await rowsHolding(accessToken)).toEqual([{ kind: 'AccessToken' }]);
    expect(await rowsHolding(sessionId)).toHaveLength(2);

    const migration = readMigrations().find((m) => m.name === '0025_oidc_payloads_hashed_ids');
    expect(migration).toBeDefined();
    await t.database.execScript(migration!.sql);

    for (const value of [accessToken, sessionId, interactionId]) expect(await rowsHolding(value)).toEqual([]);
    // A grant's id is no credential: its tokens still name it, its own row is keyed like the others.
    expect(await storedRow('Grant', sha256(grantId))).toBeDefined();
    expect(await rowsHolding(clientId)).toEqual([{ kind: 'Client' }]);
    const Adapter = databaseAdapter(t.ctx);
    expect(await new Adapter('Session').find(sessionId)).toMatchObject({ jti: sessionId, uid: 'uid-migrated' });
    expect(await new Adapter('Interaction').find(interactionId)).toEqual({
      jti: interactionId,
      kind: 'Interaction',
      session: { uid: 'uid-migrated' },
      exp,
    });
    expect(await new Adapter('Client').find(clientId)).toEqual({ client_id: clientId, client_name: 'Old client' });
    // The provider still finds the token an earlier release issued (the resource server then refuses
    // it once, as every token issued before grants were bound to their membership).
    expect(await new Adapter('AccessToken').find(accessToken)).toMatchObject({ jti: accessToken, grantId, accountId: user.user.id });
  });
});
