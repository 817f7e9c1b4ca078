// Which languages the translations tab offers. The API has no list of the languages a listing is
// translated into; what it does have is language negotiation: GET a listing with Accept-Language and
// Content-Language names the stored language it answered in (the source language when none of the
// ranges has a translation). So the tab asks about a set of candidate languages, a batch of ranges
// per request, and learns which of them the listing has. A translation into a language outside the
// candidates stays unseen until someone adds that language by hand.
import { api, ApiError } from './api';

/** The service reads at most this many Accept-Language ranges. */
const RANGES_PER_REQUEST = 20;

/**
 * Asked about on every listing besides the company's own languages: the EU's official languages and
 * other widely written ones. Offered only when the listing turns out to have them.
 */
export const COMMON_LANGUAGES = [
  'de', 'fr', 'it', 'es', 'nl', 'pt', 'en', 'pl', 'sv', 'da', 'fi', 'nb', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'hr', 'sl', 'et', 'lv', 'lt',
  'ga', 'mt', 'tr', 'ru', 'uk', 'ar', 'zh', 'ja', 'ko', 'hi',
];

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
/** A range covers a tag when it is the tag or a prefix of it (de covers de-AT). */
const covers = (range: string, tag: string) => same(range, tag) || tag.toLowerCase().startsWith(`${range.toLowerCase()}-`);
/** The tags the service tries for one range: the range, then its shorter prefixes (de-CH, de). */
const fallbacks = (range: string) => range.split('-').map((_, at, parts) => parts.slice(0, parts.length - at).join('-'));

const names = new Intl.DisplayNames(['en'], { type: 'language' });
/** "German (de)", or just the tag when the browser has no name for it. */
export function languageLabel(tag: string): string {
  let name: string | undefined;
  try {
    name = names.of(tag);
  } catch {
    name = undefined;
  }
  return name && name !== tag ? `${name} (${tag})` : tag;
}

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

async function served(id: string, ranges: string[]): Promise<string> {
  const { response, error } = await api.GET('/public/v1/job-listings/{id}', { params: { path: { id } }, headers: { 'accept-language': ranges.join(', ') } });
  if (!response.ok) throw new ApiError(response.status, error);
  return response.headers.get('content-language') ?? '';
}

/** The languages among `candidates` the listing has a (human or AI) translation in. */
export async function translatedLanguages(id: string, source: string, candidates: string[]): Promise<string[]> {
  const found: string[] = [];
  const asked = uniqueTags(candidates).filter((tag) => !isSource(tag, source));
  // A range that falls back to the source language (en-GB for an English listing) ends the search
  // there, so the ranges after it would go unasked: those are asked one at a time, last.
  const alone = asked.filter((tag) => fallbacks(tag).some((range) => covers(range, source)));
  let queue = asked.filter((tag) => !alone.includes(tag));
  while (queue.length > 0) {
    const batch = queue.slice(0, RANGES_PER_REQUEST);
    const language = await served(id, batch);
    if (!language || same(language, source)) {
      queue = queue.slice(batch.length);
      continue;
    }
    found.push(language);
    // The ranges before the one that matched have nothing: ask again with those after it.
    const at = batch.findIndex((range) => fallbacks(range).some((tag) => covers(tag, language)));
    queue = queue.slice(at < 0 ? batch.length : at + 1).filter((range) => !same(range, language));
  }
  for (const tag of alone) {
    const language = await served(id, [tag]);
    if (language && !same(language, source)) found.push(language);
  }
  return uniqueTags(found);
}

/** The source languages of the company's listings on one page: the list's Content-Language when no language is asked for. */
export async function listingLanguages(): Promise<string[]> {
  const { response, error } = await api.GET('/public/v1/job-listings', { params: { query: { size: 100 } } });
  if (!response.ok) throw new ApiError(response.status, error);
  return uniqueTags((response.headers.get('content-language') ?? '').split(','));
}
