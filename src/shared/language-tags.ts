// Language tags and Accept-Language, as pure functions (RFC 5646 tags, RFC 9110 q-values,
// RFC 4647 "lookup" matching: a range falls back to its shorter prefixes, de-CH -> de). The one
// normaliser of every language tag the service accepts (docs/decisions.md, "Language tags").

/**
 * A BCP 47 tag in its canonical form (en, pt-BR, zh-Hant-TW, en-US-u-ca-buddhist), or undefined
 * when it is not one (`en_US` is not: the listing schema refuses it too). The primary language must
 * be an ISO 639 code (2 or 3 letters): BCP 47 also allows 5 to 8 letters, which would let "english"
 * through.
 */
export function normalizeLanguageTag(tag: string): string | undefined {
  if (typeof tag !== 'string') return undefined;
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

/** The ranges of an Accept-Language header, most wanted first; q=0 (not acceptable) and junk dropped. */
export function parseAcceptLanguage(header: string | undefined): LanguageRange[] {
  if (!header) return [];
  const ranges: LanguageRange[] = [];
  for (const item of header.split(',')) {
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
  const candidates: string[] = [];
  for (const range of parseAcceptLanguage(header)) {
    if (range.tag === '*') {
      candidates.push('*');
      continue;
    }
    const parts = range.tag.split('-');
    for (let length = parts.length; length >= 1; length--) {
      const tag = parts.slice(0, length).join('-');
      // Single-letter subtags (extensions, private use) are never a useful prefix on their own.
      if (parts[length - 1].length === 1) continue;
      if (!candidates.includes(tag)) candidates.push(tag);
    }
  }
  return candidates;
}

/** Whether two normalized tags name the same language (case-insensitive compare). */
export function sameLanguage(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
