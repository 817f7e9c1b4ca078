// The machine-read views of a board: sitemap (sitemaps.org 0.9), RSS 2.0 and JSON Feed 1.1.
// Each lists the open listings only (a closed one leaves them). Pure.
import type { CareersBoard, CareersJobSummary, CareersUrls } from './model.ts';

/** Text for XML element content and attribute values; characters XML 1.0 forbids are dropped. */
export function escapeXml(value: string): string {
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** The sitemaps.org limit of URLs in one file. */
export const SITEMAP_MAX_URLS = 50_000;

export function sitemapXml(board: CareersBoard, jobs: CareersJobSummary[], urls: CareersUrls): string {
  const entries = [`<url><loc>${escapeXml(urls.board(board.slug))}</loc></url>`];
  for (const job of jobs.slice(0, SITEMAP_MAX_URLS - 1)) {
    const modified = job.updatedAt ?? job.publishedAt;
    entries.push(`<url><loc>${escapeXml(urls.job(board.slug, job.id))}</loc><lastmod>${escapeXml(modified)}</lastmod></url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

function placeText(job: CareersJobSummary): string {
  return [job.address?.city, job.address?.country, job.workPlaceType].filter(Boolean).join(', ');
}

export function rssXml(board: CareersBoard, jobs: CareersJobSummary[], urls: CareersUrls, language: string): string {
  const boardUrl = urls.board(board.slug);
  const items = jobs.map((job) => {
    const link = urls.job(board.slug, job.id);
    return `<item><title>${escapeXml(job.title)}</title><link>${escapeXml(link)}</link><guid isPermaLink="true">${escapeXml(link)}</guid><pubDate>${new Date(job.publishedAt).toUTCString()}</pubDate><description>${escapeXml(`${placeText(job)} · ${job.positionType}`)}</description><category>${escapeXml(job.positionType)}</category></item>`;
  });
  const newest = jobs.reduce<string | undefined>((latest, job) => (!latest || job.publishedAt > latest ? job.publishedAt : latest), undefined);
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${escapeXml(board.name)}</title>
<link>${escapeXml(boardUrl)}</link>
<description>${escapeXml(board.intro?.slice(0, 500) || board.name)}</description>
<language>${escapeXml(language)}</language>
<atom:link href="${escapeXml(`${boardUrl}/feed.xml`)}" rel="self" type="application/rss+xml"/>
${newest ? `<lastBuildDate>${new Date(newest).toUTCString()}</lastBuildDate>\n` : ''}${items.join('\n')}
</channel>
</rss>
`;
}

export function jsonFeed(board: CareersBoard, jobs: CareersJobSummary[], urls: CareersUrls, language: string): Record<string, unknown> {
  const boardUrl = urls.board(board.slug);
  const feed: Record<string, unknown> = {
    version: 'https://jsonfeed.org/version/1.1',
    title: board.name,
    home_page_url: boardUrl,
    feed_url: `${boardUrl}/feed.json`,
    language,
    items: jobs.map((job) => ({
      id: job.id,
      url: urls.job(board.slug, job.id),
      title: job.title,
      content_text: `${placeText(job)} · ${job.positionType}`,
      date_published: new Date(job.publishedAt).toISOString(),
      ...(job.updatedAt ? { date_modified: new Date(job.updatedAt).toISOString() } : {}),
      tags: [job.positionType, job.workPlaceType],
      ...(job.language ? { language: job.language } : {}),
    })),
  };
  if (board.intro) feed.description = board.intro.slice(0, 500);
  if (board.logoUrl) feed.icon = new URL(board.logoUrl, `${urls.base}/`).href;
  return feed;
}
