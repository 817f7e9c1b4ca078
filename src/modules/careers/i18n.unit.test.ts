import { describe, expect, it } from 'vitest';
import { translator, uiLanguageFor } from './i18n.ts';

describe('uiLanguageFor', () => {
  it('takes ?lang= first, whatever the header says', () => {
    expect(uiLanguageFor({ lang: 'de', acceptLanguage: 'en' })).toBe('de');
    expect(uiLanguageFor({ lang: 'de-AT', acceptLanguage: 'en' })).toBe('de');
  });

  it('for a ?lang= without page words, shows them in the listing language or English', () => {
    expect(uiLanguageFor({ lang: 'fr', acceptLanguage: 'de', content: 'de' })).toBe('de');
    expect(uiLanguageFor({ lang: 'fr', acceptLanguage: 'de', content: 'fr' })).toBe('en');
  });

  it('else the first Accept-Language range with page words, prefixes included', () => {
    expect(uiLanguageFor({ acceptLanguage: 'fr, de-CH;q=0.8, en;q=0.5', content: 'en' })).toBe('de');
    expect(uiLanguageFor({ lang: 'english!', acceptLanguage: 'de-CH' })).toBe('de');
  });

  it('else the language of the listing texts, else English', () => {
    expect(uiLanguageFor({ acceptLanguage: 'fr', content: 'de' })).toBe('de');
    expect(uiLanguageFor({ content: 'it' })).toBe('en');
    expect(uiLanguageFor({})).toBe('en');
  });
});

describe('translator', () => {
  it('fills placeholders, in each language', () => {
    expect(translator('en')('jobsAt', { company: 'Acme' })).toBe('Jobs at Acme');
    expect(translator('de')('jobsAt', { company: 'Acme' })).toBe('Jobs bei Acme');
    expect(translator('de')('FULL_TIME')).toBe('Vollzeit');
  });
});
