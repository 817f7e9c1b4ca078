// A search's total is kept with the company's search generation and read again while no change of
// the company's candidates could move it (docs/decisions.md, "Candidate search: file words and
// kept search totals"): every page after the first, and the same search again, skips the count.
// Exact: every kind of change that can move a total changes the generation.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { extractDueFileTexts } from '../../src/modules/documents/service.ts';
import { pdfWithText } from '../helpers/document-fixtures.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

async function total(tenant: Tenant, q: string, extra = ''): Promise<number> {
  const res = await t.app.inject({ url: `/public/v1/candidates?q=${encodeURIComponent(q)}${extra}`, headers: tenant.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().pagination.totalElements as number;
}

async function importRows(tenant: Tenant, rows: object[]): Promise<string[]> {
  const res = await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { candidates: rows } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((r: { candidateId: string }) => r.candidateId);
}

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('kept search totals', () => {
  it('are read while the generation is unchanged: a row written behind the kept changes is not counted', async () => {
    const tenant = await t.tenant();
    await importRows(tenant, [
      { firstName: 'Ann', lastName: 'One', email: 'ann@example.com', headline: 'Marimba player' },
      { firstName: 'Ben', lastName: 'Two', email: 'ben@example.com', headline: 'Marimba tuner' },
    ]);
    expect(await total(tenant, 'marimba')).toBe(2);
    // A candidate inserted with the search-change trigger off: the generation stays, so the kept
    // total (2) is answered; only a count would see the third.
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`alter table candidates disable trigger candidates_search_changes_insert`);
      await tx.execute(sql`insert into candidates (id, company_id, first_name, last_name, email, headline, skills, links, source, created_at, updated_at)
        values (gen_random_uuid(), ${tenant.companyId}, 'Cy', 'Three', 'cy@example.com', 'Marimba maker', '{}', '{}', 'IMPORTED', now(), now())`);
      await tx.execute(sql`alter table candidates enable trigger candidates_search_changes_insert`);
    });
    expect(await total(tenant, 'marimba')).toBe(2);
    // Another search of the same company counts (it was never kept) and sees all three.
    expect(await total(tenant, 'marim')).toBe(3);
    // Any counted change moves the generation: the total is counted again.
    await importRows(tenant, [{ firstName: 'Dee', lastName: 'Four', email: 'dee@example.com', headline: 'Violinist' }]);
    expect(await total(tenant, 'marimba')).toBe(3);
  });

  it('stay exact through every change that can move them', async () => {
    const tenant = await t.tenant();
    const [ann, , cy] = await importRows(tenant, [
      { firstName: 'Ann', lastName: 'One', email: 'ann@example.com', headline: 'Oboe player' },
      { firstName: 'Ben', lastName: 'Two', email: 'ben@example.com', headline: 'Oboe maker' },
      { firstName: 'Cy', lastName: 'Three', email: 'cy@example.com', headline: 'Drummer' },
    ]);
    expect(await total(tenant, 'oboe')).toBe(2);
    // Every page of the search answers the same total (the later ones read it).
    expect(await total(tenant, 'oboe', '&size=1&page=1')).toBe(2);

    // A new candidate, and imports that change a headline either way.
    await importRows(tenant, [{ firstName: 'Eve', lastName: 'Five', email: 'eve@example.com', headline: 'Oboe teacher' }]);
    expect(await total(tenant, 'oboe')).toBe(3);
    await importRows(tenant, [{ firstName: 'Cy', lastName: 'Three', email: 'cy@example.com', headline: 'Oboe repairer' }]);
    expect(await total(tenant, 'oboe')).toBe(4);
    await importRows(tenant, [{ firstName: 'Ann', lastName: 'One', email: 'ann@example.com', headline: 'Flautist' }]);
    expect(await total(tenant, 'oboe')).toBe(3);

    // A file's words taken, then the file deleted.
    const file = await t.app.inject({
      method: 'POST',
      url: `/public/v1/candidates/${ann}/files`,
      headers: tenant.headers,
      payload: { kind: 'RESUME', fileName: 'cv.pdf', contentBase64: pdfWithText([['Ten years of oboe']]).toString('base64') },
    });
    expect(file.statusCode, file.body).toBe(201);
    expect(await total(tenant, 'oboe')).toBe(3);
    await extractDueFileTexts(t.ctx);
    expect(await total(tenant, 'oboe')).toBe(4);
    const removed = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${ann}/files/${file.json().id}`, headers: tenant.headers });
    expect(removed.statusCode).toBe(204);
    expect(await total(tenant, 'oboe')).toBe(3);

    // An erasure.
    const erased = await t.app.inject({ method: 'DELETE', url: `/public/v1/candidates/${cy}`, headers: tenant.headers });
    expect(erased.statusCode).toBe(204);
    expect(await total(tenant, 'oboe')).toBe(2);

    // The kept changes fold like every kept count, and the total still holds.
    await t.ctx.db.execute(sql`select compact_kept_counts()`);
    const [{ rows }] = await queryRows<{ rows: number }>(
      t.ctx.db,
      sql`select count(*)::int as rows from company_counts where company_id = ${tenant.companyId} and resource = 'candidate_search_changes'`,
    );
    expect(rows).toBe(1);
    expect(await total(tenant, 'oboe')).toBe(2);
  });
});
