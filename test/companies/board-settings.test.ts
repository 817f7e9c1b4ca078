// /settings/company/board over HTTP with real users' access tokens: any member reads, only an
// ADMIN changes; the slug's rules (format, reserved words, unique: 409), a board on only with a
// slug, the accent colour and privacy link; the logo (PNG stored and served publicly with nosniff,
// SVG and other bytes refused 415 whatever the Content-Type says, the old logo removed). The same
// settings as /settings/company's `board`: read and changed with the company's fields, all or
// nothing (a refused board leaves the company's fields too).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { dashboardBearer } from '../identity/oauth-client.ts';
import { startListeningApp, type ListeningApp } from '../identity/server.ts';
import { SAMPLES } from '../documents/samples.ts';

let server: ListeningApp;
let counter = 0;
const unique = (name: string) => `${name}.${Date.now().toString(36)}${(counter += 1)}@example.com`;
const uniqueSlug = (name: string) => `${name}-${Date.now().toString(36)}${(counter += 1)}`;

let admin: Record<string, string>;
let member: Record<string, string>;
let stranger: Record<string, string>;

beforeAll(async () => {
  server = await startListeningApp({ DEV_SIGN_IN: 'true' });
  admin = await dashboardBearer(server, unique('admin'));
  const memberEmail = unique('member');
  const invited = await server.app.inject({ method: 'POST', url: '/settings/members/invitations', headers: admin, payload: { email: memberEmail, role: 'MEMBER' } });
  expect(invited.statusCode).toBe(201);
  member = await dashboardBearer(server, memberEmail);
  stranger = await dashboardBearer(server, unique('stranger'));
});
afterAll(() => server.close());

const PATH = '/settings/company/board';
const patch = (headers: Record<string, string>, payload: object) => server.app.inject({ method: 'PATCH', url: PATH, headers, payload });

describe('/settings/company/board', () => {
  it('starts off with no slug; only an ADMIN changes it; the rules of slug, colour and link hold', async () => {
    const first = await server.app.inject({ method: 'GET', url: PATH, headers: member });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ slug: null, enabled: false, showSalary: false, captchaEnabled: false, logoUrl: null });

    expectErrorEnvelope(await patch(member, { slug: 'mine' }), 403, 'FORBIDDEN', PATH);
    // On without a slug: refused.
    expect(expectErrorEnvelope(await patch(admin, { enabled: true }), 422, 'VALIDATION_ERROR', PATH).details).toEqual([expect.objectContaining({ field: 'enabled' })]);
    for (const slug of ['ab', 'Upper', 'two--hyphens', '-edge', 'a'.repeat(51), 'admin', 'careers']) {
      expect(expectErrorEnvelope(await patch(admin, { slug }), 422, 'VALIDATION_ERROR', PATH).details).toEqual([expect.objectContaining({ field: 'slug' })]);
    }
    expectErrorEnvelope(await patch(admin, { accentColor: 'red' }), 422, 'VALIDATION_ERROR', PATH);
    expectErrorEnvelope(await patch(admin, { privacyPolicyUrl: 'http://acme.example/privacy' }), 422, 'VALIDATION_ERROR', PATH);
    expectErrorEnvelope(await patch(admin, { intro: { 'not a tag': 'x' } }), 422, 'VALIDATION_ERROR', PATH);

    const slug = uniqueSlug('acme');
    const on = await patch(admin, {
      slug,
      enabled: true,
      publicName: ' Acme ',
      intro: { EN: ' Hello ', de: 'Hallo' },
      accentColor: '#0B5FFF',
      privacyPolicyUrl: 'https://acme.example/privacy',
      showSalary: true,
    });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ slug, enabled: true, publicName: 'Acme', intro: { en: 'Hello', de: 'Hallo' }, accentColor: '#0b5fff', showSalary: true });
    expect((await server.app.inject({ method: 'GET', url: `/boards/${slug}` })).statusCode).toBe(200);

    // Another company cannot take the slug.
    expect(expectErrorEnvelope(await patch(stranger, { slug }), 409, 'CONFLICT', PATH).details).toEqual([expect.objectContaining({ field: 'slug' })]);
    // A slug cannot be removed while the board is on; off, the board answers 404.
    expectErrorEnvelope(await patch(admin, { slug: null }), 422, 'VALIDATION_ERROR', PATH);
    expect((await patch(admin, { enabled: false })).json()).toMatchObject({ enabled: false, slug });
    expect((await server.app.inject({ method: 'GET', url: `/boards/${slug}` })).statusCode).toBe(404);
    expect((await patch(admin, { enabled: true })).statusCode).toBe(200);
  });

  it('stores a PNG logo and serves it publicly with nosniff; refuses SVG and other bytes (415)', async () => {
    const slug = uniqueSlug('logo');
    expect((await patch(admin, { slug, enabled: true })).statusCode).toBe(200);
    const LOGO = `${PATH}/logo`;
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>');
    expectErrorEnvelope(await server.app.inject({ method: 'PUT', url: LOGO, headers: { ...admin, 'content-type': 'image/png' }, payload: svg }), 415, 'UNSUPPORTED_MEDIA_TYPE', LOGO);
    expectErrorEnvelope(await server.app.inject({ method: 'PUT', url: LOGO, headers: { ...admin, 'content-type': 'image/svg+xml' }, payload: svg }), 415, 'UNSUPPORTED_MEDIA_TYPE', LOGO);
    expectErrorEnvelope(await server.app.inject({ method: 'PUT', url: LOGO, headers: { ...admin, 'content-type': 'image/png' }, payload: SAMPLES.pdf }), 415, 'UNSUPPORTED_MEDIA_TYPE', LOGO);
    expectErrorEnvelope(await server.app.inject({ method: 'PUT', url: LOGO, headers: { ...member, 'content-type': 'image/png' }, payload: SAMPLES.png }), 403, 'FORBIDDEN', LOGO);

    const stored = await server.app.inject({ method: 'PUT', url: LOGO, headers: { ...admin, 'content-type': 'image/png' }, payload: SAMPLES.png });
    expect(stored.statusCode).toBe(200);
    const logoUrl = stored.json().logoUrl as string;
    expect(logoUrl).toMatch(new RegExp(`^/boards/${slug}/logo\\?v=`));
    expect((await server.app.inject({ method: 'GET', url: `/boards/${slug}` })).json().logoUrl).toBe(logoUrl);

    const image = await server.app.inject({ method: 'GET', url: logoUrl });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.rawPayload.equals(SAMPLES.png)).toBe(true);

    // A new logo replaces the old one, under a new URL.
    const replaced = await server.app.inject({ method: 'PUT', url: LOGO, headers: { ...admin, 'content-type': 'image/jpeg' }, payload: SAMPLES.jpeg });
    expect(replaced.json().logoUrl).not.toBe(logoUrl);
    expect((await server.app.inject({ method: 'GET', url: replaced.json().logoUrl })).headers['content-type']).toBe('image/jpeg');
    let objects = 0;
    for await (const _key of server.ctx.fileStore!.list('boards/')) objects += 1;
    expect(objects).toBe(1);

    const removed = await server.app.inject({ method: 'DELETE', url: LOGO, headers: admin });
    expect(removed.json().logoUrl).toBeNull();
    expect((await server.app.inject({ method: 'GET', url: `/boards/${slug}/logo` })).statusCode).toBe(404);
  });
});

describe('/settings/company carries the board settings', () => {
  const COMPANY = '/settings/company';
  const patchCompany = (headers: Record<string, string>, payload: object) => server.app.inject({ method: 'PATCH', url: COMPANY, headers, payload });
  const readCompany = async (headers: Record<string, string>) => (await server.app.inject({ method: 'GET', url: COMPANY, headers })).json();

  it('GET shows the board as the sub-resource does; PATCH with board changes both; a MEMBER is refused', async () => {
    const owner = await dashboardBearer(server, unique('owner'));
    const first = await server.app.inject({ method: 'GET', url: COMPANY, headers: owner });
    expect(first.statusCode).toBe(200);
    expect(first.json().board).toEqual((await server.app.inject({ method: 'GET', url: PATH, headers: owner })).json());
    expect(first.json().board).toMatchObject({ slug: null, enabled: false, captchaEnabled: false });

    const slug = uniqueSlug('together');
    const changed = await patchCompany(owner, { name: 'Together GmbH', board: { slug, enabled: true, accentColor: '#AA0000', intro: { de: 'Hallo' } } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Together GmbH', board: { slug, enabled: true, accentColor: '#aa0000', intro: { de: 'Hallo' }, captchaEnabled: false } });
    expect((await server.app.inject({ method: 'GET', url: PATH, headers: owner })).json()).toEqual(changed.json().board);
    expect((await server.app.inject({ method: 'GET', url: `/boards/${slug}` })).json()).toMatchObject({ name: 'Together GmbH' });
    // Only the board: the company's fields stay; fields left out of the board stay too.
    expect((await patchCompany(owner, { board: { showSalary: true } })).json()).toMatchObject({ name: 'Together GmbH', board: { slug, enabled: true, showSalary: true } });

    expectErrorEnvelope(await patchCompany(member, { board: { enabled: false } }), 403, 'FORBIDDEN', COMPANY);
    expectErrorEnvelope(await patchCompany(member, { name: 'Taken over', board: { slug: uniqueSlug('mine') } }), 403, 'FORBIDDEN', COMPANY);
  });

  it('refuses a bad board with each failing field named, and leaves the company fields as they were (422, 409)', async () => {
    const owner = await dashboardBearer(server, unique('owner'));
    expect((await patchCompany(owner, { name: 'Before' })).statusCode).toBe(200);

    const bad = expectErrorEnvelope(await patchCompany(owner, { name: '  ', board: { slug: 'Bad Slug', accentColor: 'red' } }), 422, 'VALIDATION_ERROR', COMPANY);
    expect(bad.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'name' }), expect.objectContaining({ field: 'board.slug' }), expect.objectContaining({ field: 'board.accentColor' })]),
    );
    expect(expectErrorEnvelope(await patchCompany(owner, { name: 'After', board: { slug: 'admin' } }), 422, 'VALIDATION_ERROR', COMPANY).details).toEqual([
      expect.objectContaining({ field: 'board.slug' }),
    ]);
    expect(expectErrorEnvelope(await patchCompany(owner, { board: { nonsense: true } }), 422, 'VALIDATION_ERROR', COMPANY).details).toEqual([
      expect.objectContaining({ field: 'board.nonsense' }),
    ]);
    // Refused once the company's fields are written, in the same transaction: nothing of it stays.
    expect(expectErrorEnvelope(await patchCompany(owner, { name: 'After', board: { enabled: true } }), 422, 'VALIDATION_ERROR', COMPANY).details).toEqual([
      expect.objectContaining({ field: 'board.enabled' }),
    ]);
    const taken = uniqueSlug('taken');
    expect((await patchCompany(stranger, { board: { slug: taken } })).statusCode).toBe(200);
    expect(expectErrorEnvelope(await patchCompany(owner, { name: 'After', requiresListingReview: true, board: { slug: taken, publicName: 'Mine' } }), 409, 'CONFLICT', COMPANY).details).toEqual([
      expect.objectContaining({ field: 'board.slug' }),
    ]);
    expect(await readCompany(owner)).toMatchObject({ name: 'Before', requiresListingReview: false, board: { slug: null, enabled: false, publicName: null } });
  });
});
