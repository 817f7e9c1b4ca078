import { describe, expect, it } from 'vitest';
import {
  lookupCandidates,
  MAX_ACCEPT_LANGUAGE_LENGTH,
  MAX_LANGUAGE_RANGES,
  normalizeLanguageTag,
  parseAcceptLanguage,
  sameLanguage,
} from './languages.ts';

describe('normalizeLanguageTag', () => {
  it('puts each subtag in its canonical case', () => {
    expect(normalizeLanguageTag('EN')).toBe('en');
    expect(normalizeLanguageTag('pt-br')).toBe('pt-BR');
    expect(normalizeLanguageTag('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(normalizeLanguageTag('es-419')).toBe('es-419');
    expect(normalizeLanguageTag('de_CH')).toBe('de-CH');
  });
  it('refuses what is not a tag', () => {
    for (const bad of ['', 'e', 'english', 'en--US', 'en-', '12', 'en-toolongsubtag']) {
      expect(normalizeLanguageTag(bad)).toBeUndefined();
    }
  });
});

describe('parseAcceptLanguage', () => {
  it('orders by q, keeping header order for equal q, and drops q=0 and junk', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-CH, en;q=0.8, es;q=0, !!, *;q=0.1')).toEqual([
      { tag: 'de-CH', q: 1 },
      { tag: 'en', q: 0.8 },
      { tag: 'fr', q: 0.5 },
      { tag: '*', q: 0.1 },
    ]);
  });
  it('treats a missing or empty header as no preference', () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
  });
  it('ignores a malformed q (the range keeps q=1)', () => {
    expect(parseAcceptLanguage('de;q=abc')).toEqual([{ tag: 'de', q: 1 }]);
  });
});

describe('lookupCandidates', () => {
  it('follows each range with its shorter prefixes before the next range', () => {
    expect(lookupCandidates('de-CH, fr;q=0.5')).toEqual(['de-CH', 'de', 'fr']);
    expect(lookupCandidates('zh-Hant-TW, zh;q=0.9')).toEqual(['zh-Hant-TW', 'zh-Hant', 'zh']);
    expect(lookupCandidates('*')).toEqual(['*']);
  });
});

describe('sameLanguage', () => {
  it('compares case-insensitively', () => {
    expect(sameLanguage('pt-BR', 'pt-br')).toBe(true);
    expect(sameLanguage('pt', 'pt-BR')).toBe(false);
  });
});

describe('crafted Accept-Language headers (bounded work per request)', () => {
  const many = (count: number, tag = (i: number) => `x${String.fromCharCode(97 + (i % 26))}-a${i}-b${i}-c${i}`) =>
    Array.from({ length: count }, (_, i) => tag(i)).join(', ');

  it('reads at most MAX_LANGUAGE_RANGES entries', () => {
    const ranges = parseAcceptLanguage(`${many(5000)}, de`);
    expect(ranges.length).toBeLessThanOrEqual(MAX_LANGUAGE_RANGES);
    expect(ranges.map((r) => r.tag)).not.toContain('de');
    expect(lookupCandidates(many(5000)).length).toBeLessThanOrEqual(MAX_LANGUAGE_RANGES * 4);
  });

  it('reads at most MAX_ACCEPT_LANGUAGE_LENGTH characters and drops an entry cut by the cap', () => {
    const header = `de-CH-1996;q=0.5,fr;q=0.9,${' '.repeat(MAX_ACCEPT_LANGUAGE_LENGTH)}en`;
    expect(parseAcceptLanguage(header).map((r) => r.tag)).toEqual(['fr', 'de-CH-1996']);
    // The cut falls inside "english": no "eng" made of its first letters.
    const cut = `${' '.repeat(MAX_ACCEPT_LANGUAGE_LENGTH - 3)}fr,english`;
    expect(parseAcceptLanguage(cut).map((r) => r.tag)).toEqual(['fr']);
  });

  it('refuses over-long tags', () => {
    expect(normalizeLanguageTag(`en-${'abcdefgh-'.repeat(40)}x`)).toBeUndefined();
    expect(parseAcceptLanguage(`en-${'abcdefgh-'.repeat(4)}a, de`)).toEqual([{ tag: 'de', q: 1 }]);
  });

  it('gives each tag once, in order of preference', () => {
    expect(lookupCandidates('de-CH, de-AT, de, de-CH')).toEqual(['de-CH', 'de', 'de-AT']);
  });
});
