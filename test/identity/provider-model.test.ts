// Bearer tokens are checked through the authorization server's own model (AccessToken.find, then
// the grant it names), the one provider the process built in src/deps.ts: whatever the provider
// revokes, by its own means, is refused on the very next request.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dashboardBearer } from './oauth-client.ts';
import { startListeningApp, type ListeningApp } from './server.ts';

let t: ListeningApp;

beforeAll(async () => {
  t = await startListeningApp();
});
afterAll(async () => t.close());

const signIn = () => dashboardBearer(t, `model-${randomUUID().slice(0, 8)}@example.com`);
const tokenOf = (headers: { authorization: string }) => headers.authorization.slice('Bearer '.length);

async function apiKeys(headers: { authorization: string }) {
  return (await t.app.inject({ url: '/settings/api-keys', headers })).statusCode;
}

it('is the process-wide provider deps built once, the same one the app serves', async () => {
  const identity = await t.deps.identity();
  expect(await t.deps.identity()).toBe(identity);
  const headers = await signIn();
  expect(await identity.provider.AccessToken.find(tokenOf(headers))).toMatchObject({ clientId: 'dashboard' });
});

it('refuses a token on the request right after the provider destroyed it', async () => {
  const headers = await signIn();
  expect(await apiKeys(headers)).toBe(200);
  const { provider } = await t.deps.identity();
  const token = await provider.AccessToken.find(tokenOf(headers));
  await token!.destroy();
  const res = await t.app.inject({ url: '/settings/api-keys', headers });
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ error: 'UNAUTHORIZED', message: 'Invalid or expired access token' });
});

it('refuses a token whose grant the provider destroyed, though the token itself is still stored', async () => {
  const headers = await signIn();
  expect(await apiKeys(headers)).toBe(200);
  const { provider } = await t.deps.identity();
  const token = await provider.AccessToken.find(tokenOf(headers));
  const grant = await provider.Grant.find(token!.grantId!);
  await grant!.destroy();
  expect(await provider.AccessToken.find(tokenOf(headers))).toBeDefined();
  expect(await apiKeys(headers)).toBe(401);
});

it("refuses a token whose grant the provider revoked with everything issued under it (the revocation endpoint's way)", async () => {
  const headers = await signIn();
  const other = await signIn();
  const { provider } = await t.deps.identity();
  const token = await provider.AccessToken.find(tokenOf(headers));
  await provider.AccessToken.revokeByGrantId(token!.grantId!);
  expect(await apiKeys(headers)).toBe(401);
  // Another user's token, under another grant, is untouched.
  expect(await apiKeys(other)).toBe(200);
});

it('refuses a token whose grant no longer names its account and client (as the userinfo endpoint does)', async () => {
  const headers = await signIn();
  const { provider } = await t.deps.identity();
  const token = await provider.AccessToken.find(tokenOf(headers));
  const grant = await provider.Grant.find(token!.grantId!);
  grant!.accountId = randomUUID();
  await grant!.save();
  expect(await apiKeys(headers)).toBe(401);
});
