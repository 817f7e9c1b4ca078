// A search by relevance ranks the newest 500 matches and lists the older ones after them, newest
// first (docs/decisions.md, "Candidate search: relevance among the newest 500 matches"): a first
// page costs the newest matches, not all of them. The total still counts every match, and every
// match is reached, by offset and by cursor, exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';

const RANKED = 500;

let t: TestApp;
let tenant: Tenant;

interface Answer {
  data: Array<{ id: string; email: string }>;
  pagination: { page: number; totalElements: number; totalPages: number; nextCursor: string | null };
}

async function search(query: string): Promise<Answer> {
  const res = await t.app.inject({ url: `/public/v1/candidates?${query}`, headers: tenant.headers });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Every page of a search, following nextCursor: the emails' local parts in order, and each page's total. */
async function walk(query: string, size: number): Promise<{ names: string[]; totals: number[] }> {
  const names: string[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  do {
    const page: Answer = await search(`${query}&size=${size}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    names.push(...page.data.map((c) => c.email.split('@')[0]));
    totals.push(page.pagination.totalElements);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return { names, totals };
}

async function importRows(rows: object[]): Promise<void> {
  const res = await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: tenant.headers, payload: { candidates: rows } });
  expect(res.statusCode).toBe(200);
}

const weak = (i: number) => ({ firstName: 'Weak', lastName: `Match${i}`, email: `weak${i}@example.com`, skills: ['Kotlin'] });

beforeAll(async () => {
  t = await buildTestApp();
  tenant = await t.tenant();
  // The strongest match (the word is their first name) is the oldest; then exactly RANKED weaker
  // ones (the word is one skill), all newer.
  await importRows([{ firstName: 'Kotlin', lastName: 'Strong', email: 'strong@example.com', skills: ['Kotlin'] }]);
  t.clock.advance(60_000);
  await importRows(Array.from({ length: RANKED }, (_, i) => weak(i)));
  await importRows([{ firstName: 'Unrelated', lastName: 'Person', email: 'other@example.com', skills: ['Cobol'] }]);
}, 120_000);
afterAll(async () => t?.close());

describe('search by relevance among the newest matches', () => {
  it('ranks the newest 500 matches; an older match follows them, yet is counted and reached', async () => {
    const first = await search('q=kotlin&size=20');
    expect(first.pagination.totalElements).toBe(RANKED + 1);
    expect(first.pagination.totalPages).toBe(Math.ceil((RANKED + 1) / 20));
    expect(first.data.map((c) => c.email)).not.toContain('strong@example.com');
    // By offset: the older match is the last one, past the ranked ones.
    const last = await search(`q=kotlin&size=100&page=${RANKED / 100}`);
    expect(last.data.map((c) => c.email)).toEqual(['strong@example.com']);
    expect(last.pagination.totalElements).toBe(RANKED + 1);
  });

  it('finds the same newest matches either way: from the search index in a company where the word is rarer', async () => {
    // The statement walks the newest-first index when matches^2 > 500 x candidates (here 501^2 >
    // 500 x 502), and reads the matches from the search index otherwise: 600 more candidates
    // without the word make it read the index, with the same answers.
    const other = await t.tenant();
    const asOther = async (query: string): Promise<Answer> =>
      (await t.app.inject({ url: `/public/v1/candidates?${query}`, headers: other.headers })).json();
    const importOther = async (rows: object[]) =>
      expect((await t.app.inject({ method: 'POST', url: '/public/v1/candidates/import', headers: other.headers, payload: { candidates: rows } })).statusCode).toBe(200);
    await importOther([{ firstName: 'Kotlin', lastName: 'Strong', email: 'strong@example.com', skills: ['Kotlin'] }]);
    await importOther(Array.from({ length: 600 }, (_, i) => ({ firstName: 'No', lastName: `Match${i}`, email: `none${i}@example.com`, skills: ['Cobol'] })));
    t.clock.advance(60_000);
    await importOther(Array.from({ length: RANKED }, (_, i) => weak(i)));
    const first = await asOther('q=kotlin&size=20');
    expect(first.pagination.totalElements).toBe(RANKED + 1);
    expect(first.data.map((c) => c.email)).not.toContain('strong@example.com');
    expect((await asOther(`q=kotlin&size=100&page=${RANKED / 100}`)).data.map((c) => c.email)).toEqual(['strong@example.com']);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Answer = await asOther(`q=kotlin&size=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data.map((c) => c.email));
      cursor = page.pagination.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(RANKED + 1);
    expect(seen.at(-1)).toBe('strong@example.com');
  }, 120_000);

  it('walks every match exactly once by cursor, across the ranked and the older ones', async () => {
    for (const size of [100, 7]) {
      const { names, totals } = await walk('q=kotl', size);
      expect(names).toHaveLength(RANKED + 1);
      expect(new Set(names).size).toBe(RANKED + 1);
      expect(names.at(-1)).toBe('strong');
      expect(new Set(totals)).toEqual(new Set([RANKED + 1]));
    }
  });

  it('ranks a strong match first once it is among the newest, and the oldest ranked one moves behind', async () => {
    t.clock.advance(60_000);
    await importRows([{ firstName: 'Kotlin', lastName: 'Newer', email: 'newer@example.com', skills: [] }]);
    const first = await search('q=kotlin&size=3');
    expect(first.pagination.totalElements).toBe(RANKED + 2);
    expect(first.data[0].email).toBe('newer@example.com');
    const { names } = await walk('q=kotlin', 100);
    expect(names).toHaveLength(RANKED + 2);
    expect(new Set(names).size).toBe(RANKED + 2);
    expect(names[0]).toBe('newer');
    // Now past the ranked 500: the oldest weak match (all weak ones share their import's time, so
    // the lowest id among them) and the strong one, newest first.
    expect(names.at(-1)).toBe('strong');
    expect(names.at(-2)).toMatch(/^weak\d+$/);
  });

  it('with fewer matches than that, ranks them all: the strongest first', async () => {
    const page = await search('q=strong');
    expect(page.data.map((c) => c.email)).toEqual(['strong@example.com']);
    expect((await search('q=kotlin%20strong')).data.map((c) => c.email)).toEqual(['strong@example.com']);
    expect((await search('q=nothing')).pagination.totalElements).toBe(0);
  });
});
