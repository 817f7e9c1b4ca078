import { describe, expect, it } from 'vitest';
import { findContactSuggestions } from './contact-suggestions.ts';

describe('contact suggestions from a document', () => {
  it('finds e-mails, phone numbers and links, each once', () => {
    const text = `Ada Lovelace\nada@Example.org · +44 20 7946 0958 · (030) 1234-5678\nhttps://ada.dev/cv, linkedin.com/in/ada\nada@example.org again`;
    expect(findContactSuggestions(text)).toEqual({
      emails: ['ada@example.org'],
      phones: ['+44 20 7946 0958', '(030) 1234-5678'],
      links: ['https://ada.dev/cv', 'https://linkedin.com/in/ada'],
    });
  });

  it('does not take years or dates for phone numbers', () => {
    expect(findContactSuggestions('Engineer 2019 - 2023, since 01.02.2020').phones).toEqual([]);
  });

  it('keeps at most five of each', () => {
    const text = Array.from({ length: 9 }, (_, i) => `p${i}@example.com`).join(' ');
    expect(findContactSuggestions(text).emails).toHaveLength(5);
  });
});
