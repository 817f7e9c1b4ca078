// The dashboard's words for the API's values and its advice on errors: pure functions, tested
// without a browser (the Chromium suite checks that the pages use them).
import { describe, expect, it } from 'vitest';
import { countryCodes, countryName, formatDays, formatPercent, languageName, plural, STAGE_LABELS } from '../../dashboard/src/labels.ts';
import { errorAdvice, fieldName, isLocalUrl } from '../../dashboard/src/refusal.ts';

describe('labels', () => {
  it('rounds days and rates, and counts in words', () => {
    expect(formatDays(19.99)).toBe('20 days');
    expect(formatDays(1.2)).toBe('1 day');
    expect(formatDays(0.2)).toBe('less than a day');
    expect(formatDays(null)).toBe('–');
    expect(formatPercent(0.4567)).toBe('46%');
    expect(plural(1, 'listing')).toBe('1 listing');
    expect(plural(1200, 'listing')).toBe('1,200 listings');
    expect(plural(0, 'candidate')).toBe('0 candidates');
  });

  it('names languages and countries, and lists exactly the ISO countries the API takes', () => {
    expect(languageName('de')).toBe('German');
    expect(languageName('pt-BR')).toBe('Brazilian Portuguese');
    expect(countryName('ch')).toBe('Switzerland');
    const codes = countryCodes();
    expect(codes).toHaveLength(249);
    expect(codes).toContain('DE');
    expect(codes).not.toContain('EU');
  });

  it('has one name per stage, and the first is the one the overview and the pipeline use', () => {
    expect(STAGE_LABELS.ACTIVE).toBe('Applied');
    expect(new Set(Object.values(STAGE_LABELS)).size).toBe(Object.keys(STAGE_LABELS).length);
  });
});

describe('errorAdvice', () => {
  it('says what to do, never the code or status', () => {
    const details = [{ field: 'address.country', message: 'must be an ISO code' }];
    expect(errorAdvice(422, 'VALIDATION_ERROR', details)).toBe('Correct the fields below and try again.');
    expect(errorAdvice(403, 'FORBIDDEN', [])).toMatch(/ask an admin/);
    expect(errorAdvice(409, 'CONFLICT', [])).toMatch(/reload/);
    expect(fieldName('address.country')).toBe('Address country');
    expect(fieldName('hiringProcessSteps[0].stepOrder')).toBe('Hiring process steps 1 step order');
  });

  it('tells a developer how to allow a local webhook receiver', () => {
    const refused = [{ field: 'url', message: 'must resolve to a public internet address (private, loopback, link-local and reserved addresses are refused)' }];
    expect(isLocalUrl('http://localhost:4000/hooks')).toBe(true);
    expect(isLocalUrl('https://hooks.example.com/')).toBe(false);
    expect(errorAdvice(422, 'VALIDATION_ERROR', refused, { local: true })).toMatch(/^Local addresses need WEBHOOK_ALLOW_LOCAL=true on this server/);
    expect(errorAdvice(422, 'VALIDATION_ERROR', refused, { local: false })).toBe('Correct the fields below and try again.');
  });
});
