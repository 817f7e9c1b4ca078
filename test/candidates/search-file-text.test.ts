// Candidate search (`q`) finds the words of a candidate's files once the scheduled work has taken
// their text (docs/decisions.md, "Candidate search: file words and kept search totals"): a word
// only in a PDF résumé finds its candidate, never another company's, and goes with the file.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { findCandidateFile, listCandidateFiles } from '../../src/modules/documents/repo.ts';
import { extractDueFileTexts } from '../../src/modules/documents/service.ts';
import { NEWEST_FIRST, type PagePosition } from '../../src/shared/pagination.ts';
import { pdfWithText } from '../helpers/document-fixtures.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

interface Answer {
  data: Array<{ id: string; lastName: string }>;
  pagination: { totalElements: number };
}

async function search(tenant: Tenant, q: string): Promise<Answer> {
  const res = await t.app.inject({ url: `/public/v1/candidates?q=${encodeURIComponent(q)}`, headers: tenant.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function candidate(tenant: Tenant, person: { firstName: string; lastName: string; email: string; headline?: string }): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { candidates: [person] } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results[0].candidateId as string;
}

async function upload(tenant: Tenant, candidateId: string, lines: string[]): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/public/v1/candidates/${candidateId}/files`,
    headers: tenant.headers,
    payload: { kind: 'RESUME', fileName: 'cv.pdf', contentBase64: pdfWithText([lines]).toString('base64') },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('candidate search finds the words of their files', () => {
  it('a word only in a PDF résumé finds the candidate once its text is taken, ranked below the same word in a headline', async () => {
    const tenant = await t.tenant();
    const ada = await candidate(tenant, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', headline: 'Analyst' });
    await upload(tenant, ada, ['Ada Lovelace', 'Worked on zygomorphic engines and quaternions']);
    // Not before the scheduled work has read the file.
    expect((await search(tenant, 'zygomorphic')).pagination.totalElements).toBe(0);

    expect(await extractDueFileTexts(t.ctx)).toBe(1);
    const found = await search(tenant, 'zygomorphic');
    expect(found.pagination.totalElements).toBe(1);
    expect(found.data.map((c) => c.id)).toEqual([ada]);
    // As every word: its start finds it, and with another word of the candidate's, both must match.
    expect((await search(tenant, 'zygomor')).data.map((c) => c.id)).toEqual([ada]);
    expect((await search(tenant, 'lovelace quaternions')).data.map((c) => c.id)).toEqual([ada]);
    expect((await search(tenant, 'zygomorphic nowhere')).pagination.totalElements).toBe(0);

    // The file's metadata reads leave its text (up to 200,000 characters) where it is.
    const [file] = (await listCandidateFiles(t.ctx.db, tenant.companyId, ada, { ordering: NEWEST_FIRST, limit: 20, offset: 0, after: undefined } as PagePosition)).rows;
    expect(file).toMatchObject({ textStatus: 'DONE' });
    expect(Object.keys(file)).not.toContain('extractedText');
    expect(Object.keys((await findCandidateFile(t.ctx.db, tenant.companyId, ada, file.id))!)).not.toContain('extractedText');

    // The same word in a newer candidate's headline ranks first; Ada's, from a file, after.
    const grace = await candidate(tenant, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', headline: 'Zygomorphic designs' });
    const both = await search(tenant, 'zygomorphic');
    expect(both.pagination.totalElements).toBe(2);
    expect(both.data.map((c) => c.id)).toEqual([grace, ada]);
  });

  it("another company's files are never found", async () => {
    const owner = await t.tenant();
    const other = await t.tenant();
    const id = await candidate(owner, { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' });
    await upload(owner, id, ['Enigma and the quokkasaurus problem']);
    await extractDueFileTexts(t.ctx);
    expect((await search(owner, 'quokkasaurus')).data.map((c) => c.id)).toEqual([id]);
    // A candidate of the other company with the same e-mail shares nothing with the first.
    await candidate(other, { firstName: 'Alan', lastName: 'Turing', email: 'alan@example.com' });
    expect(await search(other, 'quokkasaurus')).toMatchObject({ data: [], pagination: { totalElements: 0 } });
  });

  it('deleting the file removes its words; the other files keep theirs', async () => {
    const tenant = await t.tenant();
    const id = await candidate(tenant, { firstName: 'Edsger', lastName: 'Dijkstra', email: 'edsger@example.com' });
    const first = await upload(tenant, id, ['Semaphores and the xylotomous method']);
    await upload(tenant, id, ['Shortest paths, also xylotomous, and the brontosaurian lemma']);
    await extractDueFileTexts(t.ctx);
    expect((await search(tenant, 'brontosaurian')).pagination.totalElements).toBe(1);
    expect((await search(tenant, 'semaphores')).pagination.totalElements).toBe(1);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${id}/files/${first}`, headers: tenant.headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await search(tenant, 'semaphores')).pagination.totalElements).toBe(0);
    expect((await search(tenant, 'xylotomous')).data.map((c) => c.id)).toEqual([id]);
    expect((await search(tenant, 'brontosaurian')).data.map((c) => c.id)).toEqual([id]);
  });

  it("erasing the candidate removes their files' words with them", async () => {
    const tenant = await t.tenant();
    const id = await candidate(tenant, { firstName: 'Barbara', lastName: 'Liskov', email: 'barbara@example.com' });
    await upload(tenant, id, ['Substitution and the pterodactylian principle']);
    await extractDueFileTexts(t.ctx);
    expect((await search(tenant, 'pterodactylian')).pagination.totalElements).toBe(1);

    const erased = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${id}`, headers: tenant.headers });
    expect(erased.statusCode, erased.body).toBe(204);
    expect((await search(tenant, 'pterodactylian')).pagination.totalElements).toBe(0);
    // Not merely hidden: the erased row keeps no word of the file.
    const [row] = await queryRows<{ words: string }>(t.ctx.db, sql`select search_vector::text as words from candidates where id = ${id}`);
    expect(row.words).not.toContain('pterodactylian');
    expect(row.words).not.toContain('substitution');
  });
});
