import { describe, expect, it } from 'vitest';
import xml from 'fast-xml-parser';
import { board, job, urls } from '../../../test/careers/fixtures.ts';
import { escapeXml, jsonFeed, rssXml, sitemapXml } from './feeds.ts';

const jobs = [job(), job({ id: '11111111-1111-4111-8111-111111111111', title: 'Tester <&> "quoted"\u0001', publishedAt: '2026-11-05T10:00:00.000Z' })];

describe('sitemapXml', () => {
  it('is well-formed XML listing the board and each listing with its last change', () => {
    const text = sitemapXml(board, jobs, urls);
    expect(xml.validate(text)).toBe(true);
    const parsed = xml.parse(text) as { urlset: { url: Array<{ loc: string; lastmod?: string }> } };
    expect(parsed.urlset.url.map((entry) => entry.loc)).toEqual([
      'https://jobs.example.com/careers/acme',
      `https://jobs.example.com/careers/acme/jobs/${jobs[0].id}`,
      `https://jobs.example.com/careers/acme/jobs/${jobs[1].id}`,
    ]);
    expect(parsed.urlset.url[1].lastmod).toBe('2026-11-02T09:00:00.000Z');
  });
});

describe('rssXml', () => {
  it('is well-formed RSS 2.0 whose texts come back as written', () => {
    const text = rssXml(board, jobs, urls, 'en');
    expect(xml.validate(text)).toBe(true);
    const parsed = xml.parse(text, { ignoreAttributes: false }) as { rss: { '@_version': string; channel: { title: string; item: Array<{ title: string; link: string; pubDate: string }> } } };
    expect(parsed.rss['@_version']).toBe('2.0');
    expect(parsed.rss.channel.title).toBe('Acme &amp; Söhne');
    expect(parsed.rss.channel.item).toHaveLength(2);
    expect(parsed.rss.channel.item[1].title).toBe('Tester &lt;&amp;&gt; &quot;quoted&quot;');
    expect(new Date(parsed.rss.channel.item[1].pubDate).toISOString()).toBe('2026-11-05T10:00:00.000Z');
  });
});

describe('jsonFeed', () => {
  it('follows JSON Feed 1.1: version, title, items with id, url, content and dates', () => {
    const feed = JSON.parse(JSON.stringify(jsonFeed(board, jobs, urls, 'de'))) as { version: string; title: string; items: Array<Record<string, unknown>> };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.title).toBe('Acme & Söhne');
    expect(feed).toMatchObject({ home_page_url: 'https://jobs.example.com/careers/acme', feed_url: 'https://jobs.example.com/careers/acme/feed.json', language: 'de' });
    expect(feed.items[0]).toMatchObject({ id: jobs[0].id, url: `https://jobs.example.com/careers/acme/jobs/${jobs[0].id}`, date_published: '2026-11-01T09:00:00.000Z' });
    for (const item of feed.items) expect(typeof item.content_text).toBe('string');
  });
});

describe('escapeXml', () => {
  it('escapes the five characters and drops those XML forbids', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000\u001f`)).toBe('&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;');
  });
});
