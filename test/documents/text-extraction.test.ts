// Text taken from documents for search: real PDF and DOCX files, each read in a bounded worker thread.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDueFileTexts } from '../../src/modules/documents/service.ts';
import { DEFAULT_EXTRACTION_LIMITS, extractDocumentText } from '../../src/modules/documents/text/extract.ts';
import { docxWithText, pdfWithText } from '../helpers/document-fixtures.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('document text extraction', () => {
  it('reads the text of every page of a PDF', async () => {
    const pdf = pdfWithText([['Ada Lovelace', 'Analytical engines (since 1842)'], ['Second page: zygomorphic']]);
    const outcome = await extractDocumentText(pdf, 'application/pdf');
    expect(outcome.kind).toBe('text');
    const text = outcome.kind === 'text' ? outcome.text : '';
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('Analytical engines (since 1842)');
    expect(text).toContain('zygomorphic');
  });

  it('reads no further than the page cap', async () => {
    const pdf = pdfWithText([['first page'], ['second page'], ['third page']]);
    const outcome = await extractDocumentText(pdf, 'application/pdf', { ...DEFAULT_EXTRACTION_LIMITS, maxPages: 2 });
    expect(outcome).toMatchObject({ kind: 'text' });
    expect(outcome.kind === 'text' && outcome.text).not.toContain('third page');
  });

  it('reads the paragraphs of a DOCX, and plain text', async () => {
    const outcome = await extractDocumentText(docxWithText(['Grace Hopper', 'COBOL & compilers <3']), DOCX);
    expect(outcome).toMatchObject({ kind: 'text' });
    expect(outcome.kind === 'text' && outcome.text).toContain('COBOL & compilers <3');
    expect(await extractDocumentText(Buffer.from('plain\u0000text  cv'), 'text/plain')).toEqual({ kind: 'text', text: 'plain text cv' });
  });

  it('takes no text from images and types it does not read', async () => {
    expect(await extractDocumentText(Buffer.from([0xff, 0xd8, 0xff]), 'image/jpeg')).toEqual({ kind: 'none' });
  });

  it('reports a broken file, and gives up at its deadline, without harming the caller', async () => {
    const broken = await extractDocumentText(Buffer.from('%PDF-1.4 this is not really a pdf'), 'application/pdf');
    expect(broken.kind).toBe('failed');
    const slow = await extractDocumentText(pdfWithText([['x']]), 'application/pdf', { ...DEFAULT_EXTRACTION_LIMITS, timeoutMs: 1 });
    expect(slow).toEqual({ kind: 'failed', reason: 'took longer than 1 ms' });
    const corruptDocx = await extractDocumentText(Buffer.from('PK\u0003\u0004 not a zip'), DOCX);
    expect(corruptDocx.kind).toBe('failed');
  });
});

describe('text of stored files, taken by the scheduled work', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a PDF résumé is PENDING after the upload, then DONE with the contact details found in it as suggestions', async () => {
    const tenant = await t.tenant();
    const candidate = await t.app.inject({
      method: 'POST',
      url: '/public/v1/candidates/import',
      headers: tenant.headers,
      payload: { candidates: [{ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }] },
    });
    const candidateId = candidate.json().results[0].candidateId as string;
    const pdf = pdfWithText([['Ada Lovelace, analyst', 'ada.private@example.org  +44 20 7946 0958', 'https://ada.dev']]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/public/v1/candidates/${candidateId}/files`,
      headers: tenant.headers,
      payload: { kind: 'RESUME', fileName: 'cv.pdf', contentBase64: pdf.toString('base64') },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ textStatus: 'PENDING', contactSuggestions: null });

    expect(await extractDueFileTexts(t.ctx)).toBe(1);
    const file = await t.app.inject({ url: `/public/v1/candidates/${candidateId}/files/${uploaded.json().id}`, headers: tenant.headers });
    expect(file.json()).toMatchObject({
      textStatus: 'DONE',
      contactSuggestions: { emails: ['ada.private@example.org'], phones: ['+44 20 7946 0958'], links: ['https://ada.dev'] },
    });
    // Suggestions only: the candidate keeps the e-mail address they gave.
    const profile = await t.app.inject({ url: `/public/v1/candidates/${candidateId}`, headers: tenant.headers });
    expect(profile.json().email).toBe('ada@example.com');
    // Nothing is left to do.
    expect(await extractDueFileTexts(t.ctx)).toBe(0);
  });
});
