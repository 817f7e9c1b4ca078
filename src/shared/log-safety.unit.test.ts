import { describe, expect, it } from 'vitest';
import { maskEmails } from './logger.ts';
import { scrubText } from './log-safety.ts';

describe('e-mail masking in logs', () => {
  it('masks addresses and leaves the rest', () => {
    expect(scrubText('from ada.lovelace@example.com and Bob+x@mail.co.uk, not a@b')).toBe('from [email] and [email], not a@b');
    expect(maskEmails({ url: '/candidates?q=ada@example.org', n: 1 })).toEqual({ url: '/candidates?q=[email]', n: 1 });
  });

  // A long run of address characters with no address in it (a long URL or message) once cost
  // seconds per line to mask: the pattern backtracked from every position of the run. At these
  // sizes the old pattern needs minutes, far past the test's time limit; the bounded one, a moment.
  it('masks long lines without backtracking over them', () => {
    const run = 'a'.repeat(200_000);
    expect(scrubText(run)).toBe(run);
    expect(maskEmails(`${run}@${'b.'.repeat(50_000)}`)).toContain('aaaa');
    expect(maskEmails(`x ${'a@'.repeat(50_000)} ada@example.com`)).toMatch(/ \[email\]$/);
  });
});
