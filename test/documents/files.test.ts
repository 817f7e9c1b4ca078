// Candidate files through the API (src/modules/documents): upload as multipart, base64 and URL;
// every refusal leaves nothing stored; download headers; signed links (expiry, tampering);
// tenancy and scopes; delete and erasure remove the stored object; events.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { sweepFileDeletions } from '../../src/modules/documents/service.ts';
import { expectErrorEnvelope } from '../helpers/envelope.ts';
import { feedSettled } from '../helpers/events.ts';
import { applicant, eventsOf, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { CONTENT_TYPE_OF, multipartBody, SAMPLES } from './samples.ts';

const MAX = 100_000;
let t: TestApp;
let tenant: Tenant;
let filesDir: string;
let origin: Server;
let originUrl: string;

beforeAll(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'files-test-'));
  t = await buildTestApp({ FILES_DIR: filesDir, FILE_MAX_BYTES: String(MAX) });
  tenant = await t.tenant();
  // A third party's server, for files given as a URL (tests allow local addresses).
  origin = createServer((request, response) => {
    if (request.url === '/cv.pdf') return response.writeHead(200, { 'content-type': 'application/pdf' }).end(SAMPLES.pdf);
    if (request.url === '/page.html') return response.writeHead(200, { 'content-type': 'application/pdf' }).end(SAMPLES.html);
    if (request.url === '/big') return response.writeHead(200).end(Buffer.alloc(MAX + 10, 0x61));
    if (request.url === '/redirect') return response.writeHead(302, { location: '/cv.pdf' }).end();
    return response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => origin.close(resolve));
  await t.close();
  rmSync(filesDir, { recursive: true, force: true });
});

async function newCandidate(who: Tenant = tenant): Promise<{ candidateId: string; applicationId: string }> {
  const listingId = await makeListing(t, who.companyId);
  const res = await t.app.inject({
    method: 'POST',
    url: '/public/v1/applications',
    headers: who.headers,
    payload: { jobListingId: listingId, candidate: applicant(`ada.${Math.random().toString(36).slice(2)}@example.com`) },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { candidateId: body.candidate.id, applicationId: body.id };
}

const filesUrl = (candidateId: string) => `/public/v1/candidates/${candidateId}/files`;

function uploadJson(candidateId: string, body: object, headers = tenant.headers) {
  return t.app.inject({ method: 'POST', url: filesUrl(candidateId), headers, payload: body });
}

function uploadMultipart(candidateId: string, fields: Record<string, string>, file?: Parameters<typeof multipartBody>[1], headers = tenant.headers) {
  const { payload, headers: contentType } = multipartBody(fields, file);
  return t.app.inject({ method: 'POST', url: filesUrl(candidateId), headers: { ...headers, ...contentType }, payload });
}

async function storedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of t.deps.fileStore.list('candidates/')) keys.push(key);
  return keys.sort();
}

async function fileRows(candidateId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from candidate_files where candidate_id = ${candidateId}`);
  return row.n;
}

async function pendingDeletions(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from candidate_file_deletions`);
  return row.n;
}

describe('upload', () => {
  it('multipart: streamed to the store, metadata answered, the bytes downloaded as an attachment', async () => {
    const { candidateId, applicationId } = await newCandidate();
    const res = await uploadMultipart(candidateId, { kind: 'RESUME', applicationId }, { fileName: '../../etc/Ada\u0007 CV.pdf', bytes: SAMPLES.pdf });
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({
      candidateId,
      applicationId,
      kind: 'RESUME',
      fileName: 'Ada CV.pdf',
      size: SAMPLES.pdf.length,
      contentType: 'application/pdf',
      uploadedBy: { type: 'API_KEY', label: 'test key' },
      contentPath: `${filesUrl(candidateId)}/${file.id}/content`,
    });
    expect(res.headers.location).toBe(`${filesUrl(candidateId)}/${file.id}`);
    expect(await storedKeys()).toContain(`candidates/${tenant.companyId}/${file.id}`);
    expect(await pendingDeletions()).toBe(0);

    const download = await t.app.inject({ method: 'GET', url: file.contentPath, headers: tenant.headers });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(SAMPLES.pdf)).toBe(true);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Ada CV.pdf"; filename*=UTF-8''Ada%20CV.pdf`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');

    const meta = await t.app.inject({ method: 'GET', url: `${filesUrl(candidateId)}/${file.id}`, headers: tenant.headers });
    expect(meta.json()).toEqual(file);
  });

  it('JSON with base64: every accepted type, its content type decided from the bytes', async () => {
    const { candidateId } = await newCandidate();
    for (const [sample, contentType] of Object.entries(CONTENT_TYPE_OF)) {
      const bytes = SAMPLES[sample as keyof typeof SAMPLES];
      // The name says otherwise: only the bytes count.
      const res = await uploadJson(candidateId, { kind: 'OTHER', fileName: `file.${sample === 'pdf' ? 'txt' : 'pdf'}`, contentBase64: bytes.toString('base64') });
      expect(res.statusCode, `${sample}: ${res.body}`).toBe(201);
      expect(res.json().contentType, sample).toBe(contentType);
      const download = await t.app.inject({ method: 'GET', url: res.json().contentPath, headers: tenant.headers });
      expect(download.headers['content-type'], sample).toBe(contentType);
      expect(download.rawPayload.equals(bytes), sample).toBe(true);
    }
  });

  it('JSON with a URL: the server fetches it', async () => {
    const { candidateId } = await newCandidate();
    const res = await uploadJson(candidateId, { kind: 'COVER_LETTER', fileName: 'letter.pdf', url: `${originUrl}/cv.pdf` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'COVER_LETTER', size: SAMPLES.pdf.length, contentType: 'application/pdf' });
  });

  it('the uploader is the signed-in user or the API key, by its label', async () => {
    const { candidateId } = await newCandidate();
    const res = await uploadJson(candidateId, { kind: 'OTHER', fileName: 'a.txt', contentBase64: SAMPLES.txt.toString('base64') });
    expect(res.json().uploadedBy.id).toEqual(expect.any(String));
  });
});

describe('refusals leave nothing stored', () => {
  let candidateId: string;
  let before: string[];
  beforeAll(async () => {
    ({ candidateId } = await newCandidate());
  });

  async function expectNothingStored() {
    expect(await fileRows(candidateId)).toBe(0);
    expect(await storedKeys()).toEqual(before);
    expect(await pendingDeletions()).toBe(0);
  }

  it('413 for a file over FILE_MAX_BYTES, multipart, base64 and URL', async () => {
    before = await storedKeys();
    const path = filesUrl(candidateId);
    const big = Buffer.alloc(MAX + 1, 0x61);
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'RESUME' }, { fileName: 'big.txt', bytes: big }), 413, 'PAYLOAD_TOO_LARGE', path);
    expectErrorEnvelope(await uploadJson(candidateId, { kind: 'RESUME', fileName: 'big.txt', contentBase64: big.toString('base64') }), 413, 'PAYLOAD_TOO_LARGE', path);
    expectErrorEnvelope(await uploadJson(candidateId, { kind: 'RESUME', fileName: 'big.txt', url: `${originUrl}/big` }), 413, 'PAYLOAD_TOO_LARGE', path);
    // Exactly the limit passes.
    const exact = await uploadJson(candidateId, { kind: 'OTHER', fileName: 'exact.txt', contentBase64: Buffer.alloc(MAX, 0x61).toString('base64') });
    expect(exact.statusCode, exact.body).toBe(201);
    await t.app.inject({ method: 'DELETE', url: `${path}/${exact.json().id}`, headers: tenant.headers });
    await expectNothingStored();
  });

  it('415 for bytes of a refused type, whatever the name and the declared type', async () => {
    before = await storedKeys();
    const path = filesUrl(candidateId);
    const html = { fileName: 'cv.pdf', contentType: 'application/pdf', bytes: SAMPLES.html };
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'RESUME' }, html), 415, 'UNSUPPORTED_MEDIA_TYPE', path);
    for (const bytes of [SAMPLES.html, SAMPLES.textWithNul, SAMPLES.zip, Buffer.from([0xc3, 0x28, 0x41])]) {
      expectErrorEnvelope(await uploadJson(candidateId, { kind: 'RESUME', fileName: 'cv.pdf', contentBase64: bytes.toString('base64') }), 415, 'UNSUPPORTED_MEDIA_TYPE', path);
    }
    expectErrorEnvelope(await uploadJson(candidateId, { kind: 'RESUME', fileName: 'cv.pdf', url: `${originUrl}/page.html` }), 415, 'UNSUPPORTED_MEDIA_TYPE', path);
    // Valid text at first, a NUL past the part the type is decided from: refused as it streams.
    const lateNul = Buffer.concat([Buffer.alloc(70_000, 0x61), Buffer.from([0]), Buffer.alloc(10, 0x61)]);
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'OTHER' }, { fileName: 'notes.txt', bytes: lateNul }), 415, 'UNSUPPORTED_MEDIA_TYPE', path);
    await expectNothingStored();
  });

  it('422 for bad base64, an empty file, a bad kind or field, an application of another candidate, both or neither source', async () => {
    before = await storedKeys();
    const path = filesUrl(candidateId);
    const other = await newCandidate();
    const cases: Array<[object, string]> = [
      [{ kind: 'RESUME', fileName: 'a.pdf', contentBase64: 'not base64!' }, 'contentBase64'],
      [{ kind: 'RESUME', fileName: 'a.pdf', contentBase64: 'QUJD=' }, 'contentBase64'],
      [{ kind: 'PHOTO', fileName: 'a.pdf', contentBase64: SAMPLES.pdf.toString('base64') }, 'kind'],
      [{ kind: 'RESUME', fileName: 'a.pdf', applicationId: other.applicationId, contentBase64: SAMPLES.pdf.toString('base64') }, 'applicationId'],
      [{ kind: 'RESUME', fileName: 'a.pdf' }, 'contentBase64'],
      [{ kind: 'RESUME', fileName: 'a.pdf', contentBase64: SAMPLES.pdf.toString('base64'), url: `${originUrl}/cv.pdf` }, 'contentBase64'],
      [{ kind: 'RESUME', fileName: 'a.pdf', url: `${originUrl}/missing` }, 'url'],
      [{ kind: 'RESUME', fileName: 'a.pdf', url: `${originUrl}/redirect` }, 'url'],
    ];
    for (const [body, field] of cases) {
      const envelope = expectErrorEnvelope(await uploadJson(candidateId, body), 422, 'VALIDATION_ERROR', path);
      expect((envelope.details as Array<{ field: string }>).map((d) => d.field), JSON.stringify(body)).toContain(field);
    }
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'RESUME' }, { fileName: 'empty.pdf', bytes: Buffer.alloc(0) }), 422, 'VALIDATION_ERROR', path);
    expectErrorEnvelope(await uploadMultipart(candidateId, {}, { fileName: 'cv.pdf', bytes: SAMPLES.pdf }), 422, 'VALIDATION_ERROR', path);
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'RESUME' }), 422, 'VALIDATION_ERROR', path);
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'RESUME', colour: 'red' }, { fileName: 'cv.pdf', bytes: SAMPLES.pdf }), 422, 'VALIDATION_ERROR', path);
    expectErrorEnvelope(await uploadMultipart(candidateId, { kind: 'RESUME', applicationId: other.applicationId }, { fileName: 'cv.pdf', bytes: SAMPLES.pdf }), 422, 'VALIDATION_ERROR', path);
    await expectNothingStored();
  });

  it('a URL to a private address or without https is refused (422) where local addresses are not allowed', async () => {
    const strict = await buildTestApp({ FILES_DIR: filesDir, WEBHOOK_ALLOW_LOCAL: 'false' });
    try {
      const other = await strict.tenant();
      const listingId = await makeListing(strict, other.companyId);
      const applied = await strict.app.inject({
        method: 'POST',
        url: '/public/v1/applications',
        headers: other.headers,
        payload: { jobListingId: listingId, candidate: applicant('grace@example.com') },
      });
      const strictCandidate = applied.json().candidate.id as string;
      before = await storedKeys();
      for (const url of [`${originUrl}/cv.pdf`, 'https://127.0.0.1/cv.pdf', 'https://[::1]/cv.pdf', 'https://169.254.169.254/latest/meta-data', 'https://localhost/cv.pdf', 'ftp://example.com/cv.pdf']) {
        const res = await strict.app.inject({ method: 'POST', url: filesUrl(strictCandidate), headers: other.headers, payload: { kind: 'RESUME', fileName: 'cv.pdf', url } });
        const envelope = expectErrorEnvelope(res, 422, 'VALIDATION_ERROR', filesUrl(strictCandidate));
        expect(envelope.details, url).toEqual([expect.objectContaining({ field: 'url' })]);
      }
      expect(await storedKeys()).toEqual(before);
    } finally {
      await strict.close();
    }
  });
});

describe('list, tenancy, scopes', () => {
  it('lists newest first with cursors', async () => {
    const { candidateId } = await newCandidate();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      ids.push((await uploadJson(candidateId, { kind: 'OTHER', fileName: `f${i}.txt`, contentBase64: SAMPLES.txt.toString('base64') })).json().id);
    }
    const first = await t.app.inject({ method: 'GET', url: `${filesUrl(candidateId)}?size=2`, headers: tenant.headers });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.map((f: { id: string }) => f.id)).toEqual([ids[2], ids[1]]);
    expect(first.json().pagination).toMatchObject({ totalElements: 3, totalPages: 2 });
    const second = await t.app.inject({ method: 'GET', url: `${filesUrl(candidateId)}?size=2&cursor=${first.json().pagination.nextCursor}`, headers: tenant.headers });
    expect(second.json().data.map((f: { id: string }) => f.id)).toEqual([ids[0]]);
    expect(second.json().pagination.nextCursor).toBeNull();
  });

  it("another company's candidate or file is 404, and a file under another candidate too", async () => {
    const { candidateId } = await newCandidate();
    const fileId = (await uploadJson(candidateId, { kind: 'OTHER', fileName: 'a.txt', contentBase64: SAMPLES.txt.toString('base64') })).json().id;
    const stranger = await t.tenant();
    const strangers = await newCandidate(stranger);
    for (const url of [filesUrl(candidateId), `${filesUrl(candidateId)}/${fileId}`, `${filesUrl(candidateId)}/${fileId}/content`, `${filesUrl(candidateId)}/${fileId}/url`]) {
      expectErrorEnvelope(await t.app.inject({ method: 'GET', url, headers: stranger.headers }), 404, 'NOT_FOUND', url);
    }
    expectErrorEnvelope(await t.app.inject({ method: 'DELETE', url: `${filesUrl(candidateId)}/${fileId}`, headers: stranger.headers }), 404, 'NOT_FOUND', `${filesUrl(candidateId)}/${fileId}`);
    expectErrorEnvelope(await uploadJson(candidateId, { kind: 'OTHER', fileName: 'a.txt', contentBase64: SAMPLES.txt.toString('base64') }, stranger.headers), 404, 'NOT_FOUND', filesUrl(candidateId));
    // Their own candidate, our file id.
    const mixed = `${filesUrl(strangers.candidateId)}/${fileId}/content`;
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url: mixed, headers: stranger.headers }), 404, 'NOT_FOUND', mixed);
    expect(await fileRows(candidateId)).toBe(1);
  });

  it('reading takes candidates:read, writing candidates:write', async () => {
    const { candidateId } = await newCandidate();
    const readOnly = { 'x-api-key': await t.keyFor(tenant.companyId, ['candidates:read']) };
    const none = { 'x-api-key': await t.keyFor(tenant.companyId, ['jobs:read']) };
    expectErrorEnvelope(await uploadJson(candidateId, { kind: 'OTHER', fileName: 'a.txt', contentBase64: SAMPLES.txt.toString('base64') }, readOnly), 403, 'FORBIDDEN', filesUrl(candidateId));
    expect((await t.app.inject({ method: 'GET', url: filesUrl(candidateId), headers: readOnly })).statusCode).toBe(200);
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url: filesUrl(candidateId), headers: none }), 403, 'FORBIDDEN', filesUrl(candidateId));
  });
});

describe('signed download links', () => {
  it('download without a key until they expire; an altered link is refused', async () => {
    const { candidateId } = await newCandidate();
    const fileId = (await uploadJson(candidateId, { kind: 'RESUME', fileName: 'Ada Lovelace – CV.pdf', contentBase64: SAMPLES.pdf.toString('base64') })).json().id;
    const res = await t.app.inject({ method: 'GET', url: `${filesUrl(candidateId)}/${fileId}/url`, headers: tenant.headers });
    expect(res.statusCode).toBe(200);
    const { url, expiresAt } = res.json();
    expect(new Date(expiresAt).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(5 * 60_000);
    expect(url.startsWith(t.config.baseUrl)).toBe(true);
    const path = url.slice(t.config.baseUrl.length);
    const download = await t.app.inject({ method: 'GET', url: path });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(SAMPLES.pdf)).toBe(true);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="Ada Lovelace _ CV.pdf"; filename*=UTF-8''Ada%20Lovelace%20%E2%80%93%20CV.pdf`);
    expect(download.headers['x-content-type-options']).toBe('nosniff');

    const parsed = new URL(url);
    const expires = parsed.searchParams.get('expires')!;
    const signature = parsed.searchParams.get('signature')!;
    const other = (await uploadJson(candidateId, { kind: 'OTHER', fileName: 'b.txt', contentBase64: SAMPLES.txt.toString('base64') })).json().id;
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    for (const tampered of [
      `/file-downloads/${fileId}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `/file-downloads/${other}?expires=${expires}&signature=${signature}`,
      `/file-downloads/${fileId}?expires=${expires}&signature=${flipped}`,
      `/file-downloads/${fileId}?expires=${expires}&signature=`,
    ]) {
      expectErrorEnvelope(await t.app.inject({ method: 'GET', url: tampered }), 403, 'FORBIDDEN', tampered.split('?')[0]);
    }
    t.clock.advance(5 * 60_000 + 1000);
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url: path }), 403, 'FORBIDDEN', `/file-downloads/${fileId}`);
  });

  it('a link to a deleted file answers 404', async () => {
    const { candidateId } = await newCandidate();
    const fileId = (await uploadJson(candidateId, { kind: 'OTHER', fileName: 'a.txt', contentBase64: SAMPLES.txt.toString('base64') })).json().id;
    const { url } = (await t.app.inject({ method: 'GET', url: `${filesUrl(candidateId)}/${fileId}/url`, headers: tenant.headers })).json();
    await t.app.inject({ method: 'DELETE', url: `${filesUrl(candidateId)}/${fileId}`, headers: tenant.headers });
    const path = url.slice(t.config.baseUrl.length);
    expectErrorEnvelope(await t.app.inject({ method: 'GET', url: path }), 404, 'NOT_FOUND', path.split('?')[0]);
  });
});

describe('delete, erasure, events', () => {
  it('DELETE removes the row and the object, and records candidate.file_removed after candidate.file_added', async () => {
    const { candidateId } = await newCandidate();
    const file = (await uploadJson(candidateId, { kind: 'PORTFOLIO', fileName: 'p.png', contentBase64: SAMPLES.png.toString('base64') })).json();
    const key = `candidates/${tenant.companyId}/${file.id}`;
    expect(await storedKeys()).toContain(key);
    const res = await t.app.inject({ method: 'DELETE', url: `${filesUrl(candidateId)}/${file.id}`, headers: tenant.headers });
    expect(res.statusCode).toBe(204);
    expect(await storedKeys()).not.toContain(key);
    expect(await fileRows(candidateId)).toBe(0);
    expect(await pendingDeletions()).toBe(0);
    const added = (await eventsOf(t, tenant.companyId, 'candidate.file_added')).find((data) => (data.file as { id: string }).id === file.id);
    const removed = (await eventsOf(t, tenant.companyId, 'candidate.file_removed')).find((data) => (data.file as { id: string }).id === file.id);
    expect(added).toEqual({ file });
    expect(removed).toEqual({ file });
    expectErrorEnvelope(await t.app.inject({ method: 'DELETE', url: `${filesUrl(candidateId)}/${file.id}`, headers: tenant.headers }), 404, 'NOT_FOUND', `${filesUrl(candidateId)}/${file.id}`);
  });

  it('the events reach the feed with the candidates:read scope', async () => {
    await feedSettled(t, tenant.companyId, tenant.headers);
    const res = await t.app.inject({ method: 'GET', url: '/public/v1/events?type=candidate.file_added', headers: tenant.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.length).toBeGreaterThan(0);
  });

  it("the export lists the candidate's files; erasing the candidate deletes their rows and objects", async () => {
    const { candidateId } = await newCandidate();
    const ids = [];
    for (const sample of ['pdf', 'docx'] as const) {
      ids.push((await uploadJson(candidateId, { kind: 'RESUME', fileName: `cv.${sample}`, contentBase64: SAMPLES[sample].toString('base64') })).json().id);
    }
    const exported = await t.app.inject({ method: 'GET', url: `/public/v1/candidates/${candidateId}/export`, headers: tenant.headers });
    expect(exported.json().files.map((f: { id: string }) => f.id)).toEqual(ids);
    const keys = ids.map((id) => `candidates/${tenant.companyId}/${id}`);
    expect((await storedKeys()).filter((key) => keys.includes(key))).toHaveLength(2);

    const erased = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${candidateId}`, headers: tenant.headers });
    expect(erased.statusCode).toBe(204);
    expect((await storedKeys()).filter((key) => keys.includes(key))).toEqual([]);
    expect(await fileRows(candidateId)).toBe(0);
    expect(await pendingDeletions()).toBe(0);
  });

  it('the sweep deletes objects whose deletion a crash interrupted, and those of uploads that never committed', async () => {
    const store = t.deps.fileStore;
    const put = (key: string) => store.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    const now = t.clock.now();
    // An erasure committed (its mark due now) but the process died before the store delete.
    await put('candidates/crash/erased');
    // An upload whose object was written but whose row never committed (its mark due in an hour).
    await put('candidates/crash/unfinished');
    await queryRows(
      t.database.db,
      sql`insert into candidate_file_deletions (storage_key, due_at, attempts, created_at) values
          ('candidates/crash/erased', ${now}, 0, ${now}), ('candidates/crash/unfinished', ${new Date(now.getTime() + 3_600_000)}, 0, ${now})`,
    );
    expect(await sweepFileDeletions(t.ctx)).toBe(1);
    expect(await storedKeys()).not.toContain('candidates/crash/erased');
    expect(await storedKeys()).toContain('candidates/crash/unfinished');
    t.clock.advance(3_600_000 + 1000);
    expect(await sweepFileDeletions(t.ctx)).toBe(1);
    expect(await storedKeys()).not.toContain('candidates/crash/unfinished');
    expect(await pendingDeletions()).toBe(0);
  });
});

describe('a résumé with a submitted application', () => {
  it('is stored as the candidate\'s RESUME tied to the application', async () => {
    const listingId = await makeListing(t, tenant.companyId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: {
        jobListingId: listingId,
        candidate: applicant('resume.sender@example.com'),
        resume: { fileName: 'C:\\Users\\ada\\cv.pdf', contentBase64: SAMPLES.pdf.toString('base64') },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id: applicationId, candidate } = res.json();
    const files = (await t.app.inject({ method: 'GET', url: filesUrl(candidate.id), headers: tenant.headers })).json().data;
    expect(files).toEqual([expect.objectContaining({ kind: 'RESUME', applicationId, fileName: 'cv.pdf', contentType: 'application/pdf', size: SAMPLES.pdf.length })]);
    const byUrl = await t.app.inject({
      method: 'POST',
      url: '/public/v1/applications',
      headers: tenant.headers,
      payload: { jobListingId: await makeListing(t, tenant.companyId), candidate: applicant('resume.sender@example.com'), resume: { fileName: 'cv.pdf', url: `${originUrl}/cv.pdf` } },
    });
    expect(byUrl.statusCode, byUrl.body).toBe(201);
    expect((await t.app.inject({ method: 'GET', url: filesUrl(candidate.id), headers: tenant.headers })).json().data).toHaveLength(2);
  });

  it('refused (415, 413, 422), it refuses the application; a refused application (409) keeps no résumé', async () => {
    const listingId = await makeListing(t, tenant.companyId);
    const before = await storedKeys();
    const submit = (email: string, resume: object) =>
      t.app.inject({ method: 'POST', url: '/public/v1/applications', headers: tenant.headers, payload: { jobListingId: listingId, candidate: applicant(email), resume } });
    expectErrorEnvelope(await submit('refused.one@example.com', { fileName: 'cv.pdf', contentBase64: SAMPLES.html.toString('base64') }), 415, 'UNSUPPORTED_MEDIA_TYPE', '/public/v1/applications');
    expectErrorEnvelope(await submit('refused.one@example.com', { fileName: 'cv.txt', contentBase64: Buffer.alloc(MAX + 1, 0x61).toString('base64') }), 413, 'PAYLOAD_TOO_LARGE', '/public/v1/applications');
    const bad = expectErrorEnvelope(await submit('refused.one@example.com', { fileName: 'cv.pdf', contentBase64: '***' }), 422, 'VALIDATION_ERROR', '/public/v1/applications');
    expect(bad.details).toEqual([expect.objectContaining({ field: 'resume.contentBase64' })]);
    const listed = await t.app.inject({ method: 'GET', url: '/public/v1/candidates?q=refused.one', headers: tenant.headers });
    expect(listed.json().data).toEqual([]);

    expect((await submit('twice@example.com', { fileName: 'cv.pdf', contentBase64: SAMPLES.pdf.toString('base64') })).statusCode).toBe(201);
    const afterFirst = await storedKeys();
    expectErrorEnvelope(await submit('twice@example.com', { fileName: 'cv.pdf', contentBase64: SAMPLES.pdf.toString('base64') }), 409, 'CONFLICT', '/public/v1/applications');
    expect(await storedKeys()).toEqual(afterFirst);
    expect(afterFirst.length).toBe(before.length + 1);
    expect(await pendingDeletions()).toBe(0);
  });
});

describe('résumés in a candidate import', () => {
  it('are stored for their rows, tied to the applications; a refused one refuses the import', async () => {
    const listingId = await makeListing(t, tenant.companyId);
    const before = await storedKeys();
    const importing = (candidates: object[]) =>
      t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { jobListingId: listingId, candidates } });
    const refused = await importing([
      { ...applicant('import.one@example.com'), resume: { fileName: 'cv.pdf', contentBase64: SAMPLES.pdf.toString('base64') } },
      { ...applicant('import.two@example.com'), resume: { fileName: 'cv.pdf', contentBase64: SAMPLES.html.toString('base64') } },
    ]);
    expect(expectErrorEnvelope(refused, 415, 'UNSUPPORTED_MEDIA_TYPE', '/public/v1/candidates/import').message).toMatch(/^candidates\[1\]\.resume: /);
    expect(await storedKeys()).toEqual(before);
    expect(await pendingDeletions()).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/public/v1/candidates?q=import.one', headers: tenant.headers })).json().data).toEqual([]);

    const res = await importing([
      { ...applicant('import.one@example.com'), resume: { fileName: 'one.pdf', contentBase64: SAMPLES.pdf.toString('base64') } },
      applicant('import.plain@example.com'),
      { ...applicant('import.two@example.com'), resume: { fileName: 'two.pdf', url: `${originUrl}/cv.pdf` } },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const results = res.json().results;
    expect(results.map((row: { resumeFileId: string | null }) => row.resumeFileId === null)).toEqual([false, true, false]);
    const files = (await t.app.inject({ method: 'GET', url: filesUrl(results[0].candidateId), headers: tenant.headers })).json().data;
    expect(files).toEqual([expect.objectContaining({ id: results[0].resumeFileId, kind: 'RESUME', fileName: 'one.pdf', applicationId: results[0].applicationId })]);
    expect((await storedKeys()).length).toBe(before.length + 2);
  });
});
