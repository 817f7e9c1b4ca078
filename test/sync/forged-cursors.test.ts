// Cursors are signed with a key of the server's (a MAC from the secret box) and their values are
// range-checked before they reach SQL: on every keyset list, a forged cursor (made without the key,
// here with the unkeyed checksum cursors once carried), a tampered one, and one the server signed
// but whose values PostgreSQL would refuse (the year 0000) are each a 422 on `cursor` in the
// envelope, never a 500. The delivery log follows its own nextCursor and refuses garbage.
import { hash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../../src/shared/pagination.ts';
import { ALL_SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { getMembership } from '../../src/modules/users/service.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { feedSettled } from '../helpers/events.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { userByEmail } from '../helpers/users.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';

let server: ListeningApp;
let receiver: Receiver;
let keyHeaders: Record<string, string>;
let bearer: Record<string, string>;
let subscriptionId: string;
let applicationId: string;

interface CursorBody {
  s: string;
  p: number;
  k: Array<string | number | boolean>;
}

const YEAR_ZERO = '0000-01-01T00:00:00.000Z';
const stamp = `${Date.now().toString(36)}`;

const get = (url: string, headers: Record<string, string>) => server.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  server = await startListeningApp();
  receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
  const adminEmail = `cursor-admin.${stamp}@example.com`;
  bearer = await dashboardBearer(server, adminEmail);
  const user = await userByEmail(server.ctx, adminEmail);
  const companyId = (await getMembership(server.ctx, user!.id))!.companyId;
  keyHeaders = { 'x-api-key': await server.keyFor(companyId, ALL_SCOPES) };

  // Two of everything, so that every list at size=1 answers a nextCursor.
  const listingId = await makeListing(server, companyId, 'ACTIVE');
  await makeListing(server, companyId, 'ACTIVE', 'Second role');
  for (const email of [`ada.${stamp}@example.com`, `grace.${stamp}@example.com`]) {
    const res = await server.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: keyHeaders,
      payload: { jobListingId: listingId, candidate: applicant(email) },
    });
    expect(res.statusCode, res.body).toBe(201);
    applicationId = (res.json() as { id: string }).id;
  }
  for (const status of ['IN_REVIEW', 'INTERVIEW']) {
    const res = await server.app.inject({ method: 'PATCH', url: `/public/v1/applications/${applicationId}/status`, headers: keyHeaders, payload: { status } });
    expect(res.statusCode, res.body).toBe(200);
  }
  for (const path of ['a', 'b']) {
    const res = await server.app.inject({ method: 'POST', url: '/public/v1/webhooks', headers: keyHeaders, payload: { url: `${receiver.origin}/${path}`, events: ['ping'] } });
    expect(res.statusCode, res.body).toBe(201);
    subscriptionId = (res.json() as { id: string }).id;
  }
  // Three pings: three entries in the delivery log.
  for (let i = 0; i < 3; i++) {
    server.clock.advance(1000);
    expect((await server.app.inject({ method: 'POST', url: `/public/v1/webhooks/${subscriptionId}/test`, headers: keyHeaders })).statusCode).toBe(200);
  }
  for (const who of ['x', 'y', 'z']) {
    const res = await server.app.inject({ method: 'POST', url: '/settings/members/invitations', headers: bearer, payload: { email: `invitee-${who}.${stamp}@example.com`, role: 'MEMBER' } });
    expect(res.statusCode, res.body).toBe(201);
  }
  // A second member: the invitee signs in and joins.
  await dashboardBearer(server, `invitee-x.${stamp}@example.com`);
  // The events list needs two events in view for a second page.
  await feedSettled(server, companyId, keyHeaders);
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await server?.close();
});

/** Every keyset list of the API, with the credential it takes. */
const lists = (): Array<{ url: string; headers: Record<string, string>; timestamps: boolean }> => [
  { url: '/public/v1/job-listings', headers: keyHeaders, timestamps: true },
  { url: '/public/v1/job-listings?updatedSince=2000-01-01T00:00:00Z', headers: keyHeaders, timestamps: true },
  { url: '/public/v1/candidates', headers: keyHeaders, timestamps: true },
  { url: '/public/v1/applications', headers: keyHeaders, timestamps: true },
  { url: `/public/v1/applications/${applicationId}/history`, headers: keyHeaders, timestamps: true },
  { url: '/public/v1/webhooks', headers: keyHeaders, timestamps: true },
  { url: `/public/v1/webhooks/${subscriptionId}/deliveries`, headers: keyHeaders, timestamps: true },
  { url: '/public/v1/events', headers: keyHeaders, timestamps: false },
  { url: '/settings/members', headers: bearer, timestamps: true },
  { url: '/settings/members/invitations', headers: bearer, timestamps: true },
];

const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

async function firstCursor(url: string, headers: Record<string, string>): Promise<string> {
  const res = await get(withQuery(url, 'size=1'), headers);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  const cursor = (res.json() as { pagination: { nextCursor: string | null } }).pagination.nextCursor;
  expect(cursor, url).toBeTruthy();
  return cursor!;
}

const bodyOf = (cursor: string) => JSON.parse(Buffer.from(cursor.split('.')[0], 'base64url').toString()) as CursorBody;

/** A cursor as anyone could make one without the server's key: the unkeyed checksum of old. */
function forge(body: CursorBody): string {
  const text = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${text}.${hash('sha256', text, 'base64url').slice(0, 8)}`;
}

async function expectRefused(url: string, headers: Record<string, string>, cursor: string): Promise<void> {
  const full = withQuery(url, `size=1&cursor=${encodeURIComponent(cursor)}`);
  const res = await get(full, headers);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
  const body = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', url.split('?')[0]);
  expect(body.details).toEqual([expect.objectContaining({ field: 'cursor' })]);
}

describe('forged and tampered cursors on every keyset list', () => {
  it('a forged cursor naming the year 0000 (or any position) is a 422, never a 500', async () => {
    for (const { url, headers, timestamps } of lists()) {
      const real = bodyOf(await firstCursor(url, headers));
      const keys = [...real.k];
      if (timestamps) keys[0] = YEAR_ZERO;
      await expectRefused(url, headers, forge({ ...real, k: keys }));
      // Even the server's own values, re-made without its key, are not a cursor.
      await expectRefused(url, headers, forge(real));
    }
  });

  it('a tampered cursor (edited page, edited tag, cut) is a 422', async () => {
    for (const { url, headers } of lists()) {
      const cursor = await firstCursor(url, headers);
      const [body, tag] = cursor.split('.');
      const real = bodyOf(cursor);
      const edited = Buffer.from(JSON.stringify({ ...real, p: real.p + 5 })).toString('base64url');
      await expectRefused(url, headers, `${edited}.${tag}`);
      await expectRefused(url, headers, `${body}.${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`);
      await expectRefused(url, headers, cursor.slice(0, -2));
    }
  });

  it('a cursor signed with the server key but naming the year 0000 is a 422 (the values are range-checked too)', async () => {
    for (const { url, headers, timestamps } of lists()) {
      if (!timestamps) continue;
      const real = bodyOf(await firstCursor(url, headers));
      const keys = [YEAR_ZERO, ...real.k.slice(1)];
      await expectRefused(url, headers, encodeCursor(server.ctx.secrets, real.s, real.p, keys));
    }
  });

  it('the genuine cursors still lead to the next page on every list', async () => {
    for (const { url, headers } of lists()) {
      const cursor = await firstCursor(url, headers);
      const res = await get(withQuery(url, `size=1&cursor=${encodeURIComponent(cursor)}`), headers);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect((res.json() as { pagination: { page: number } }).pagination.page, url).toBe(1);
    }
  });
});

describe('the delivery log by cursor', () => {
  it('follows its nextCursor to the end, every delivery once, and refuses a garbage cursor', async () => {
    const url = `/public/v1/webhooks/${subscriptionId}/deliveries`;
    const all = (await get(withQuery(url, 'size=100'), keyHeaders)).json() as { data: Array<{ id: string }> };
    expect(all.data).toHaveLength(3);
    const seen: string[] = [];
    let res = await get(withQuery(url, 'size=1'), keyHeaders);
    for (let pages = 0; ; pages++) {
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { data: Array<{ id: string }>; pagination: { page: number; nextCursor: string | null } };
      expect(body.pagination.page).toBe(pages);
      seen.push(...body.data.map((item) => item.id));
      if (!body.pagination.nextCursor) break;
      expect(pages, 'the cursor leads somewhere new').toBeLessThan(3);
      res = await get(withQuery(url, `size=1&cursor=${encodeURIComponent(body.pagination.nextCursor)}`), keyHeaders);
    }
    expect(seen).toEqual(all.data.map((item) => item.id));
    await expectRefused(url, keyHeaders, 'garbage');
    await expectRefused(`${url}?status=DELIVERED`, keyHeaders, await firstCursor(url, keyHeaders));
  });
});
