// The hosted careers pages through HTTP on a real database: what a candidate and a search engine
// get, and what they never get (another company's listings, drafts, closed ones, script).
import xml from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateBoardSettings } from '../../src/modules/companies/service.ts';
import { closeJobListing, createJobListing, publishJobListing, putJobListingTranslation } from '../../src/modules/job-listings/service.ts';
import { enableBoard } from '../helpers/factories.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { assertGoogleJobPosting } from './job-posting-rules.ts';

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
const slug = 'acme-careers';
const ids: Record<string, string> = {};

async function listing(company: string, input: Record<string, unknown>, status: 'DRAFT' | 'ACTIVE' | 'CLOSED' = 'ACTIVE'): Promise<string> {
  const { listing: created } = await createJobListing(t.ctx, company, {
    positionType: 'FULL_TIME',
    workPlaceType: 'ON_SITE',
    jobDescription: 'You will build our API.\n\nWith care.',
    ...input,
  } as Parameters<typeof createJobListing>[2]);
  if (status !== 'DRAFT') await publishJobListing(t.ctx, company, created.id);
  if (status === 'CLOSED') await closeJobListing(t.ctx, company, created.id);
  return created.id;
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

function jsonLdOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(match, 'a JSON-LD block').not.toBeNull();
  return JSON.parse(match![1]) as Record<string, unknown>;
}

beforeAll(async () => {
  t = await buildTestApp({ BASE_URL: 'https://jobs.example.com' });
  companyId = (await t.tenant()).companyId;
  otherCompanyId = (await t.tenant()).companyId;
  await enableBoard(t, companyId, slug, {
    publicName: 'Acme & Co',
    intro: { en: 'We make anvils.', de: 'Wir bauen Ambosse.' },
    accentColor: '#0b7285',
    privacyPolicyUrl: 'https://acme.example/privacy',
    showSalary: true,
  });
  await enableBoard(t, otherCompanyId, 'other-careers');
  ids.backend = await listing(companyId, {
    position: 'Backend engineer',
    address: { city: 'Berlin', country: 'DE', street: 'Hauptstr. 1', postalCode: '10115' },
    currency: 'EUR',
    salaryBase: 60000,
    salaryMax: 75000,
    paymentInterval: 'YEARLY',
  });
  await putJobListingTranslation(t.ctx, companyId, ids.backend, 'de', { position: 'Backend-Entwickler', jobDescription: 'Sie bauen unsere API.' });
  ids.remote = await listing(companyId, { position: 'Support agent', workPlaceType: 'REMOTE', positionType: 'PART_TIME', address: { country: 'AT' } });
  ids.evil = await listing(companyId, { position: '</script><script>alert(1)</script>', jobDescription: '<img src=x onerror=alert(1)>', address: { city: 'Köln', country: 'DE' } });
  ids.nowhere = await listing(companyId, { position: 'Somewhere role' });
  ids.draft = await listing(companyId, { position: 'Secret draft' }, 'DRAFT');
  ids.closed = await listing(companyId, { position: 'Filled role' }, 'CLOSED');
  ids.foreign = await listing(otherCompanyId, { position: 'Other company job' });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the list page', () => {
  it('lists the open listings only, with a strict CSP and the company settings', async () => {
    const res = await get(`/careers/${slug}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('script-src');
    expect(csp).toMatch(/style-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
    expect(res.body).toContain('Backend engineer');
    expect(res.body).toContain('Support agent');
    expect(res.body).not.toContain('Secret draft');
    expect(res.body).not.toContain('Filled role');
    expect(res.body).not.toContain('Other company job');
    expect(res.body).toContain('Acme &amp; Co');
    expect(res.body).toContain('We make anvils.');
    expect(res.body).toContain('--accent:#0b7285');
    expect(res.body).toContain('<link rel="canonical" href="https://jobs.example.com/careers/acme-careers">');
    // No script element but data, no resource of another host.
    expect(res.body.match(/<script/g) ?? []).toHaveLength(0);
    expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\/(?!jobs\.example\.com|acme\.example\/privacy)/);
  });

  it('filters by work place and position type, and searches the titles', async () => {
    const remote = await get(`/careers/${slug}?workPlaceType=REMOTE`);
    expect(remote.body).toContain('Support agent');
    expect(remote.body).not.toContain('Backend engineer');
    const searched = await get(`/careers/${slug}?q=backend`);
    expect(searched.body).toContain('Backend engineer');
    expect(searched.body).not.toContain('Support agent');
  });

  it('speaks German for ?lang=de and for Accept-Language: de, with the listing translations', async () => {
    const byQuery = await get(`/careers/${slug}?lang=de`);
    expect(byQuery.body).toContain('<html lang="de">');
    expect(byQuery.body).toContain('Jobs bei Acme &amp; Co');
    expect(byQuery.body).toContain('Wir bauen Ambosse.');
    expect(byQuery.body).toContain('Backend-Entwickler');
    const byHeader = await get(`/careers/${slug}`, { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(byHeader.body).toContain('Offene Stellen');
    expect(byHeader.headers.vary).toContain('Accept-Language');
  });

  it('answers 404 for an unknown slug and for a board turned off', async () => {
    expect((await get('/careers/no-such-board')).statusCode).toBe(404);
    const off = (await t.tenant()).companyId;
    await updateBoardSettings(t.ctx, off, { slug: 'off-careers', enabled: false });
    const res = await get('/careers/off-careers');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await get('/careers/off-careers/sitemap.xml')).statusCode).toBe(404);
  });
});

describe('a listing page', () => {
  it('carries a JobPosting JSON-LD with every property Google requires, of the right type', async () => {
    for (const id of [ids.backend, ids.remote, ids.evil]) {
      const res = await get(`/careers/${slug}/jobs/${id}`);
      expect(res.statusCode).toBe(200);
      const posting = jsonLdOf(res.body);
      assertGoogleJobPosting(posting);
      expect(posting.identifier).toMatchObject({ value: id });
      expect(res.body).toContain(`<link rel="canonical" href="https://jobs.example.com/careers/${slug}/jobs/${id}">`);
      expect(res.body).toContain('<meta property="og:title"');
    }
    const backend = jsonLdOf((await get(`/careers/${slug}/jobs/${ids.backend}`)).body);
    expect(backend).toMatchObject({
      title: 'Backend engineer',
      employmentType: 'FULL_TIME',
      hiringOrganization: { name: 'Acme & Co' },
      jobLocation: { address: { addressLocality: 'Berlin', addressCountry: 'DE' } },
      baseSalary: { currency: 'EUR', value: { minValue: 60000, maxValue: 75000, unitText: 'YEAR' } },
    });
    const remote = jsonLdOf((await get(`/careers/${slug}/jobs/${ids.remote}`)).body);
    expect(remote).toMatchObject({ jobLocationType: 'TELECOMMUTE', employmentType: 'PART_TIME' });
  });

  it('carries no JobPosting for a listing with no place to name (Google would refuse it), the page all the same', async () => {
    const res = await get(`/careers/${slug}/jobs/${ids.nowhere}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Somewhere role</h1>');
    expect(res.body).not.toContain('application/ld+json');
  });

  it('shows a title with <script> as text: the only script element is the JSON-LD block', async () => {
    const res = await get(`/careers/${slug}/jobs/${ids.evil}`);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toContain('<img src=x');
    expect(res.body).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body.match(/<script/g)).toHaveLength(1);
    expect(jsonLdOf(res.body).title).toBe('</script><script>alert(1)</script>');
  });

  it('is in German with ?lang=de: the translated texts and the page words', async () => {
    const res = await get(`/careers/${slug}/jobs/${ids.backend}?lang=de`);
    expect(res.body).toContain('<h1>Backend-Entwickler</h1>');
    expect(res.body).toContain('Sie bauen unsere API.');
    expect(res.body).toContain('Jetzt bewerben');
    expect(jsonLdOf(res.body).title).toBe('Backend-Entwickler');
  });

  it('answers 404 for a draft, another company listing and a made-up id; 410 for a closed one', async () => {
    expect((await get(`/careers/${slug}/jobs/${ids.draft}`)).statusCode).toBe(404);
    expect((await get(`/careers/${slug}/jobs/${ids.foreign}`)).statusCode).toBe(404);
    expect((await get(`/careers/${slug}/jobs/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect((await get(`/careers/${slug}/jobs/not-a-uuid`)).statusCode).toBe(404);
    const closed = await get(`/careers/${slug}/jobs/${ids.closed}`);
    expect(closed.statusCode).toBe(410);
    expect(closed.body).toContain('no longer open');
    expect(closed.body).not.toContain('application/ld+json');
  });
});

describe('sitemap and feeds', () => {
  it('the sitemap is XML listing the board and each open listing, never a closed or draft one', async () => {
    const res = await get(`/careers/${slug}/sitemap.xml`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(xml.validate(res.body)).toBe(true);
    const locs = [(xml.parse(res.body) as { urlset: { url: Array<{ loc: string }> } }).urlset.url].flat().map((entry) => entry.loc);
    expect(locs).toContain(`https://jobs.example.com/careers/${slug}`);
    expect(locs).toContain(`https://jobs.example.com/careers/${slug}/jobs/${ids.backend}`);
    expect(locs.some((loc) => loc.includes(ids.closed) || loc.includes(ids.draft) || loc.includes(ids.foreign))).toBe(false);
    expect(locs).toHaveLength(5);
  });

  it('a listing closed now leaves the sitemap and answers 410', async () => {
    const id = await listing(companyId, { position: 'Short-lived' });
    expect((await get(`/careers/${slug}/sitemap.xml`)).body).toContain(id);
    await closeJobListing(t.ctx, companyId, id);
    expect((await get(`/careers/${slug}/sitemap.xml`)).body).not.toContain(id);
    expect((await get(`/careers/${slug}/jobs/${id}`)).statusCode).toBe(410);
  });

  it('the RSS feed is RSS 2.0 XML and the JSON Feed is JSON Feed 1.1, with the open listings', async () => {
    const rss = await get(`/careers/${slug}/feed.xml`);
    expect(rss.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(xml.validate(rss.body)).toBe(true);
    const channel = (xml.parse(rss.body, { ignoreAttributes: false }) as { rss: { '@_version': string; channel: { item: Array<{ link: string }> } } }).rss;
    expect(channel['@_version']).toBe('2.0');
    expect(channel.channel.item.map((item) => item.link)).toContain(`https://jobs.example.com/careers/${slug}/jobs/${ids.remote}`);
    const json = await get(`/careers/${slug}/feed.json`);
    expect(json.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    const feed = JSON.parse(json.body) as { version: string; items: Array<{ id: string; url: string; title: string }> };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.items.map((item) => item.id).sort()).toEqual([ids.backend, ids.remote, ids.evil, ids.nowhere].sort());
    expect(feed.items.find((item) => item.id === ids.evil)?.title).toBe('</script><script>alert(1)</script>');
  });
});

describe('the stylesheet', () => {
  it('is served from this origin, cached for good', async () => {
    const page = await get(`/careers/${slug}`);
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)![1];
    const css = await get(href);
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toContain('immutable');
  });
});
