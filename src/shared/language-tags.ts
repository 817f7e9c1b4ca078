// Language tags and Accept-Language, as pure functions (RFC 5646 tags, RFC 9110 q-values,
// RFC 4647 "lookup" matching: a range falls back to its shorter prefixes, de-CH -> de). The one
// normaliser of every language tag the service accepts (docs/decisions.md, "Language tags").

/** RFC 5646 4.4.1: 35 characters hold any tag in practical use. */
export const MAX_LANGUAGE_TAG_LENGTH = 35;
/**
 * Accept-Language is read up to this many characters and ranges: browsers send a handful, and an
 * unbounded header made each request cost seconds of CPU (the candidates below are tried per
 * listing).
 */
export const MAX_ACCEPT_LANGUAGE_LENGTH = 1024;
export const MAX_LANGUAGE_RANGES = 20;

/**
 * A BCP 47 tag in its canonical form (en, pt-BR, zh-Hant-TW, en-US-u-ca-buddhist), or undefined
 * when it is not one (`en_US` is not: the listing schema refuses it too). The primary language must
 * be an ISO 639 code (2 or 3 letters): BCP 47 also allows 5 to 8 letters, which would let "english"
 * through.
 */
export function normalizeLanguageTag(tag: string): string | undefined {
  if (typeof tag !== 'string' || tag.length > MAX_LANGUAGE_TAG_LENGTH + 2) return undefined; // + surrounding spaces
  let canonical: string;
  try {
    [canonical] = Intl.getCanonicalLocales(tag.trim());
  } catch {
    return undefined; // RangeError: not a well-formed tag
  }
  return canonical && /^[a-z]{2,3}(?:-|$)/.test(canonical) ? canonical : undefined;
}

export interface LanguageRange {
  /** A normalized tag, or '*' */
  tag: string;
  q: number;
}

/**
 * The ranges of an Accept-Language header, most wanted first; q=0 (not acceptable) and junk
 * dropped. Only the first MAX_LANGUAGE_RANGES entries within MAX_ACCEPT_LANGUAGE_LENGTH characters
 * count: the rest of an over-long header is ignored, not refused.
 */
export function parseAcceptLanguage(header: string | undefined): LanguageRange[] {
  if (!header) return [];
  const ranges: LanguageRange[] = [];
  const items = header.slice(0, MAX_ACCEPT_LANGUAGE_LENGTH).split(',');
  // An entry cut by the length cap is dropped rather than read as a shorter tag.
  if (header.length > MAX_ACCEPT_LANGUAGE_LENGTH) items.pop();
  for (const item of items.slice(0, MAX_LANGUAGE_RANGES)) {
    const [rawTag, ...params] = item.trim().split(';');
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Math.min(1, Number(match[1]));
    }
    if (q <= 0) continue;
    // Lenient with a header: de_CH is read as de-CH.
    const tag = rawTag.trim() === '*' ? '*' : normalizeLanguageTag(rawTag.replaceAll('_', '-'));
    if (tag) ranges.push({ tag, q });
  }
  // Array.prototype.sort is stable: equal q keeps the header's order.
  return ranges.sort((a, b) => b.q - a.q);
}

/** The tags to try, in order: each range, then its shorter prefixes (de-CH-1996, de-CH, de). */
export function lookupCandidates(header: string | undefined): string[] {
  const candidates = new Set<string>();
  for (const range of parseAcceptLanguage(header)) {
    if (range.tag === '*') {
      candidates.add('*');
      continue;
    }
    const parts = range.tag.split('-');
    for (let length = parts.length; length >= 1; length--) {
      const tag = parts.slice(0, length).join('-');
      // Single-letter subtags (extensions, private use) are never a useful prefix on their own.
      if (parts[length - 1].length === 1) continue;
      candidates.add(tag);
    }
  }
  return [...candidates];
}

/** Whether two normalized tags name the same language (case-insensitive compare). */
export function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
