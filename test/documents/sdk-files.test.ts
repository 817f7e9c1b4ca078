// The SDK's file helpers against a listening server: upload a Blob and a Node.js stream (sent as it
// is read), download as a stream with its name.
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRecruitingClient, downloadCandidateFile, RecruitingApiError, uploadCandidateFile } from '@recruiting/sdk';
import { applicant, makeListing } from '../helpers/factories.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { SAMPLES } from './samples.ts';

let t: TestApp;
let tenant: Tenant;
let baseUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  tenant = await t.tenant();
});
afterAll(async () => {
  await t.close();
});

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  return Buffer.from(await new Response(stream).arrayBuffer());
}

it('uploads a Blob and a Node.js stream, and downloads them with their names', async () => {
  const client = createRecruitingClient({ baseUrl, apiKey: tenant.apiKey });
  const listingId = await makeListing(t, tenant.companyId);
  const applied = await client.POST('/public/v1/applications', { body: { jobListingId: listingId, candidate: applicant('sdk.files@example.com') } });
  const candidateId = applied.data!.candidate.id;

  const fromBlob = await uploadCandidateFile(client, { candidateId, kind: 'RESUME', file: new Blob([SAMPLES.pdf]), fileName: 'Lebenslauf – Ada.pdf', applicationId: applied.data!.id });
  expect(fromBlob).toMatchObject({ kind: 'RESUME', fileName: 'Lebenslauf – Ada.pdf', contentType: 'application/pdf', applicationId: applied.data!.id });

  // A stream of several chunks, larger than the part the type is decided from.
  const text = Buffer.alloc(200_000, 'line of text\n');
  const chunks = Array.from({ length: 20 }, (_, i) => text.subarray(i * 10_000, (i + 1) * 10_000));
  const fromStream = await uploadCandidateFile(client, { candidateId, kind: 'OTHER', file: Readable.from(chunks), fileName: 'notes.txt' });
  expect(fromStream).toMatchObject({ size: text.length, contentType: 'text/plain; charset=utf-8' });

  const pdf = await downloadCandidateFile(client, candidateId, fromBlob.id);
  expect(pdf).toMatchObject({ contentType: 'application/pdf', fileName: 'Lebenslauf – Ada.pdf', size: SAMPLES.pdf.length });
  expect((await bytesOf(pdf.body)).equals(SAMPLES.pdf)).toBe(true);
  const notes = await downloadCandidateFile(client, candidateId, fromStream.id);
  expect((await bytesOf(notes.body)).equals(text)).toBe(true);

  const refused = await uploadCandidateFile(client, { candidateId, kind: 'OTHER', file: Readable.from([SAMPLES.html]), fileName: 'cv.pdf' }).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(RecruitingApiError);
  expect((refused as RecruitingApiError).status).toBe(415);
  const missing = await downloadCandidateFile(client, candidateId, '00000000-0000-4000-8000-000000000000').catch((error: unknown) => error);
  expect((missing as RecruitingApiError).status).toBe(404);
});

it('streams a file of exactly the default limit (10 MB) from a Node.js stream; one byte more is 413', async () => {
  const client = createRecruitingClient({ baseUrl, apiKey: tenant.apiKey });
  const listingId = await makeListing(t, tenant.companyId);
  const applied = await client.POST('/public/v1/applications', { body: { jobListingId: listingId, candidate: applicant('sdk.big@example.com') } });
  const candidateId = applied.data!.candidate.id;
  const limit = t.config.fileMaxBytes;
  expect(limit).toBe(10 * 1024 * 1024);
  // 1 MB chunks made as they are read: the test holds one at a time.
  const text = (total: number) =>
    Readable.from(
      (function* () {
        for (let sent = 0; sent < total; sent += 1024 * 1024) yield Buffer.alloc(Math.min(1024 * 1024, total - sent), 'cv line\n');
      })(),
    );
  const stored = await uploadCandidateFile(client, { candidateId, kind: 'PORTFOLIO', file: text(limit), fileName: 'big.txt' });
  expect(stored.size).toBe(limit);
  const tooBig = await uploadCandidateFile(client, { candidateId, kind: 'PORTFOLIO', file: text(limit + 1), fileName: 'big.txt' }).catch((error: unknown) => error);
  expect((tooBig as RecruitingApiError).status).toBe(413);
});
