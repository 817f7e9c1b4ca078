import { describe, expect, it } from 'vitest';
import { chooseLanguage, translator } from './i18n.ts';

describe('chooseLanguage', () => {
  it('takes ?lang= first, whatever the header says', () => {
    expect(chooseLanguage({ lang: 'de', acceptLanguage: 'en', preferred: ['en'] })).toEqual({ content: 'de', ui: 'de' });
    expect(chooseLanguage({ lang: 'fr', acceptLanguage: 'de' })).toEqual({ content: 'fr', ui: 'en' });
  });

  it('ignores a ?lang= that is no language tag', () => {
    expect(chooseLanguage({ lang: 'english!', acceptLanguage: 'de-CH' })).toEqual({ content: 'de-CH', ui: 'de' });
  });

  it('prefers the languages the company has listings in, in the order the browser wants them', () => {
    expect(chooseLanguage({ acceptLanguage: 'fr, de;q=0.8, en;q=0.5', preferred: ['en', 'de'] })).toEqual({ content: 'de', ui: 'de' });
    expect(chooseLanguage({ acceptLanguage: 'de-AT, en;q=0.5', preferred: ['de'] })).toEqual({ content: 'de', ui: 'de' });
  });

  it('falls back to a language the page words exist in, then to the company first language', () => {
    expect(chooseLanguage({ acceptLanguage: 'fr, de;q=0.5', preferred: ['it'] })).toEqual({ content: 'de', ui: 'de' });
    expect(chooseLanguage({ acceptLanguage: 'fr', preferred: ['it'] })).toEqual({ content: 'it', ui: 'en' });
    expect(chooseLanguage({})).toEqual({ content: 'en', ui: 'en' });
  });
});

describe('translator', () => {
  it('fills placeholders, in each language', () => {
    expect(translator('en')('jobsAt', { company: 'Acme' })).toBe('Jobs at Acme');
    expect(translator('de')('jobsAt', { company: 'Acme' })).toBe('Jobs bei Acme');
    expect(translator('de')('FULL_TIME')).toBe('Vollzeit');
  });
});
