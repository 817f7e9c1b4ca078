// Users, the development sign-in and its settings, the /sign-in entry, and the storage rules of
// the authorization server (expired rows absent and purged, keys shared by every app on a database).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps } from '../../src/deps.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { queryRows } from '../../src/db/client.ts';
import { databaseAdapter } from '../../src/modules/oauth/adapter.ts';
import { storedPayloadId } from '../../src/modules/oauth/repo.ts';
import { sweepRetention } from '../../src/maintenance/retention.ts';
import { EmailNotVerifiedError, getMembership, signInVerifiedUser } from '../../src/modules/users/service.ts';
import { Browser, formAction } from './browser.ts';
import { startListeningApp, type ListeningApp } from './server.ts';

describe('settings of the development sign-in', () => {
  it('is on by default with the embedded database in development mode only, and refused in production mode', () => {
    expect(loadConfig({}).devSignIn).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db' }).devSignIn).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1:5432/db', DEV_SIGN_IN: 'true' }).devSignIn).toBe(true);
    const production = { MODE: 'production', ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
    expect(loadConfig(production).devSignIn).toBe(false);
    expect(() => loadConfig({ ...production, DEV_SIGN_IN: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...production, DEV_SIGN_IN: 'true' })).toThrow(/DEV_SIGN_IN/);
  });

  it('checks COOKIE_KEYS', () => {
    expect(loadConfig({ COOKIE_KEYS: `${'a'.repeat(32)},${'b'.repeat(40)}` }).cookieKeys).toEqual(['a'.repeat(32), 'b'.repeat(40)]);
    expect(() => loadConfig({ COOKIE_KEYS: 'short' })).toThrow(/COOKIE_KEYS/);
  });
});

describe('users', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp();
  });
  afterAll(async () => t.close());

  it('creates the user and a company with them as ADMIN on the first sign-in, and reuses both on the next', async () => {
    const email = `New.Person-${randomUUID().slice(0, 6)}@Example.com`;
    const first = await signInVerifiedUser(t.ctx, { email, emailVerified: true, name: 'New Person' });
    expect(first.created).toBe(true);
    expect(first.user.email).toBe(email.toLowerCase());
    expect(first.membership.role).toBe('ADMIN');
    const company = await t.app.inject({ method: 'GET', url: '/healthz' }); // the app is up
    expect(company.statusCode).toBe(200);

    const second = await signInVerifiedUser(t.ctx, { email: email.toUpperCase(), emailVerified: true, picture: 'https://img.example/p.png' });
    expect(second.created).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.user.name).toBe('New Person'); // kept when the provider sends none
    expect(second.user.picture).toBe('https://img.example/p.png');
    expect(second.membership).toEqual(first.membership);
  });

  it('never signs in (nor links) on an e-mail the provider has not verified', async () => {
    const email = `unverified-${randomUUID().slice(0, 6)}@example.com`;
    await expect(signInVerifiedUser(t.ctx, { email, emailVerified: false })).rejects.toBeInstanceOf(EmailNotVerifiedError);
    const rows = await queryRows(t.ctx.db, sql`select 1 from users where email = ${email}`);
    expect(rows).toEqual([]);
  });

  it('creates one company even when the first sign-in arrives twice at once', async () => {
    const email = `twice-${randomUUID().slice(0, 6)}@example.com`;
    const [a, b] = await Promise.all([
      signInVerifiedUser(t.ctx, { email, emailVerified: true }),
      signInVerifiedUser(t.ctx, { email, emailVerified: true }),
    ]);
    expect(a.user.id).toBe(b.user.id);
    expect(a.membership.companyId).toBe(b.membership.companyId);
    expect((await getMembership(t.ctx, a.user.id))?.companyId).toBe(a.membership.companyId);
  });

  it('/sign-in starts the dashboard sign-in and comes back signed in; the sign-in page has no script and no external asset', async () => {
    const browser = new Browser();
    const page = await browser.follow(`${t.baseUrl}/sign-in`, 'never');
    expect(page.status).toBe(200);
    expect(page.url).toMatch(new RegExp(`^${t.baseUrl}/sign-in/[A-Za-z0-9_-]+$`));
    expect(page.body).not.toMatch(/<script|<link|src=|url\(/i);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const done = await browser.follow(formAction(page, '/dev'), 'never', { form: { email: `entry-${randomUUID().slice(0, 6)}@example.com` } });
    expect(done.status).toBe(200);
    // Back at the dashboard's redirect URI with a code: the sign-in completed (the dashboard page,
    // or the page saying it is not built, takes it from there).
    const back = new URL(done.url);
    expect(back.pathname).toBe('/dashboard/callback');
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('refuses a sign-in form posted without the browser\'s interaction cookie (another site, another browser)', async () => {
    const page = await new Browser().follow(`${t.baseUrl}/sign-in`, 'never');
    const stranger = await new Browser().request(formAction(page, '/dev'), { form: { email: 'mallory@example.com' } });
    expect(stranger.status).toBe(400);
    expect(JSON.parse(stranger.body)).toMatchObject({ error: 'SIGN_IN_EXPIRED' });
  });
});

describe('development sign-in switched off', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp({ DEV_SIGN_IN: 'false' });
  });
  afterAll(async () => t.close());

  it('shows no e-mail form and refuses the form post with 403', async () => {
    const browser = new Browser();
    const page = await browser.follow(`${t.baseUrl}/sign-in`, 'never');
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('/dev"');
    expect(page.body).toContain('No way to sign in is configured');
    const posted = await browser.request(`${page.url}/dev`, { form: { email: 'someone@example.com' } });
    expect(posted.status).toBe(403);
    expect(JSON.parse(posted.body)).toMatchObject({ error: 'FORBIDDEN' });
  });
});

describe('authorization-server storage', () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListeningApp();
  });
  afterAll(async () => t.close());

  it('reads expired rows as absent and purges them', async () => {
    const Adapter = databaseAdapter(t.ctx);
    const tokens = new Adapter('AccessToken');
    const id = `test-${randomUUID()}`;
    await tokens.upsert(id, { grantId: 'g1', accountId: 'a' } as never, 60);
    expect(await tokens.find(id)).toMatchObject({ grantId: 'g1' });
    t.clock.advance(61_000);
    try {
      expect(await tokens.find(id)).toBeUndefined();
      expect((await sweepRetention(t.ctx, t.config.retention)).oauthExpired).toBeGreaterThanOrEqual(1);
      // Rows are keyed by the hash of the id (artifact-storage.test.ts).
      expect(await queryRows(t.ctx.db, sql`select 1 from oidc_payloads where id = ${storedPayloadId('AccessToken', id)}`)).toEqual([]);
    } finally {
      t.clock.advance(-61_000);
    }
  });

  it('consumes, finds by uid, and revokes everything of a grant', async () => {
    const Adapter = databaseAdapter(t.ctx);
    const codes = new Adapter('AuthorizationCode');
    const sessions = new Adapter('Session');
    await codes.upsert('code-1', { grantId: 'grant-x' } as never, 60);
    await codes.consume('code-1');
    expect(((await codes.find('code-1')) as { consumed?: number }).consumed).toBeGreaterThan(0);
    await sessions.upsert('session-1', { uid: 'uid-1' } as never, 60);
    expect(await sessions.findByUid('uid-1')).toMatchObject({ uid: 'uid-1' });
    await codes.revokeByGrantId('grant-x');
    expect(await codes.find('code-1')).toBeUndefined();
  });

  it('shares the generated keys between servers on one database', async () => {
    const otherDeps = await buildDeps(t.config, { database: t.database, clock: t.clock, secrets: t.ctx.secrets });
    const other = await buildApp(otherDeps);
    other.addHook('onClose', () => otherDeps.close());
    try {
      const mine = (await t.app.inject({ method: 'GET', url: '/oauth2/jwks' })).json();
      const theirs = (await other.inject({ method: 'GET', url: '/oauth2/jwks' })).json();
      expect(theirs).toEqual(mine);
      // The private parts are sealed at rest, never stored in clear.
      const stored = JSON.stringify(await queryRows(t.ctx.db, sql`select material from oidc_keys`));
      expect(stored).toContain('enc:v1:');
      expect(stored).not.toContain('"d"');
    } finally {
      await other.close();
    }
  });
});
