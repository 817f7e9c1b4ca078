// Language tags and Accept-Language, as pure functions (RFC 5646 tags, RFC 9110 q-values,
// RFC 4647 "lookup" matching: a range falls back to its shorter prefixes, de-CH -> de).

/** RFC 5646 4.4.1: 35 characters hold any tag in practical use. */
export const MAX_LANGUAGE_TAG_LENGTH = 35;
/**
 * Accept-Language is read up to this many characters and ranges: browsers send a handful, and an
 * unbounded header made each request cost seconds of CPU (the candidates below are tried per
 * listing).
 */
export const MAX_ACCEPT_LANGUAGE_LENGTH = 1024;
export const MAX_LANGUAGE_RANGES = 20;

/** Canonical case of a BCP 47 tag (en, pt-BR, zh-Hant), or undefined when it is not one. */
export function normalizeLanguageTag(tag: string): string | undefined {
  if (tag.length > MAX_LANGUAGE_TAG_LENGTH + 2) return undefined; // + surrounding spaces
  const parts = tag.trim().split(/[-_]/);
  if (!/^[A-Za-z]{2,3}$/.test(parts[0] ?? '')) return undefined;
  if (parts.slice(1).some((part) => !/^[A-Za-z0-9]{1,8}$/.test(part))) return undefined;
  return parts
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (/^[A-Za-z]{4}$/.test(part)) return part[0].toUpperCase() + part.slice(1).toLowerCase(); // script
      if (/^([A-Za-z]{2}|\d{3})$/.test(part)) return part.toUpperCase(); // region
      return part.toLowerCase();
    })
    .join('-');
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
    const tag = rawTag.trim() === '*' ? '*' : normalizeLanguageTag(rawTag);
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
