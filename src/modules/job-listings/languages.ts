// Language tags and Accept-Language, as pure functions (RFC 5646 tags, RFC 9110 q-values,
// RFC 4647 "lookup" matching: a range falls back to its shorter prefixes, de-CH -> de).

/** Canonical case of a BCP 47 tag (en, pt-BR, zh-Hant), or undefined when it is not one. */
export function normalizeLanguageTag(tag: string): string | undefined {
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
    const tag = rawTag.trim() === '*' ? '*' : normalizeLanguageTag(rawTag);
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
