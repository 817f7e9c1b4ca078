// Which languages the translations tab offers: the listing's translation languages (from the API),
// the company's own languages, and BCP 47 tags checked here the way the service checks them.
import { api, ApiError } from './api';
import { languageName } from './labels';

/**
 * A BCP 47 tag in canonical form, or undefined: the same rule as the service's (a well-formed tag
 * whose primary language is a 2- or 3-letter ISO 639 code, at most 35 characters).
 */
export function canonicalTag(tag: string): string | undefined {
  const trimmed = tag.trim();
  if (trimmed === '' || trimmed.length > 35) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(trimmed);
    return canonical && /^[a-z]{2,3}(?:-|$)/.test(canonical) ? canonical : undefined;
  } catch {
    return undefined;
  }
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** "German", or just the tag when the browser has no name for it. */
export const languageLabel = languageName;

/** The first distinct canonical tags, in order. */
export function uniqueTags(tags: Array<string | null | undefined>): string[] {
  const seen = new Map<string, string>();
  for (const tag of tags) {
    const canonical = tag ? canonicalTag(tag) : undefined;
    if (canonical && !seen.has(canonical.toLowerCase())) seen.set(canonical.toLowerCase(), canonical);
  }
  return [...seen.values()];
}

/** Whether a tag is the listing's source language (a translation into it cannot exist). */
export const isSource = (tag: string, source: string) => same(tag, source);

/** The languages the listing has a stored (human or AI) translation in, in one request. */
export async function translatedLanguages(id: string): Promise<string[]> {
  const { data, response, error } = await api.GET('/public/v1/job-listings/{id}/translations', { params: { path: { id } } });
  if (!response.ok || !data) throw new ApiError(response.status, error);
  return uniqueTags(data.data.map((entry) => entry.language));
}

/** The source languages of the company's listings on one page: the list's Content-Language when no language is asked for. */
export async function listingLanguages(): Promise<string[]> {
  const { response, error } = await api.GET('/public/v1/job-listings', { params: { query: { size: 100 } } });
  if (!response.ok) throw new ApiError(response.status, error);
  return uniqueTags((response.headers.get('content-language') ?? '').split(','));
}
