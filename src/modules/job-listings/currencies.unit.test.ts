import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, normalizeCurrency } from './currencies.ts';

describe('currencies', () => {
  it('knows the common ISO 4217 codes, whatever the case', () => {
    expect(normalizeCurrency('EUR')).toBe('EUR');
    expect(normalizeCurrency('usd')).toBe('USD');
    expect(normalizeCurrency(' chf ')).toBe('CHF');
  });
  it('refuses codes that are not currencies or not salary currencies', () => {
    for (const code of ['EURO', 'XYZ', 'XAU', 'XXX', '', 'E1R']) expect(normalizeCurrency(code)).toBeUndefined();
  });
  it('holds only three-letter upper-case codes', () => {
    expect(CURRENCY_CODES.size).toBeGreaterThan(150);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
  });
});
