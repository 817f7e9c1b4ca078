import { describe, expect, it } from 'vitest';
import { attachmentDisposition, detectType, PlainTextCheck, sanitizeFileName } from './file-rules.ts';

describe('sanitizeFileName', () => {
  it('keeps the last path segment, without control, bidirectional or zero-width characters', () => {
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\ada\\cv.pdf')).toBe('cv.pdf');
    expect(sanitizeFileName('cv\u0000\u0007\u001b.pdf')).toBe('cv.pdf');
    expect(sanitizeFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeFileName('  ..hidden.txt ')).toBe('hidden.txt');
    expect(sanitizeFileName('Lebenslauf – Zoë.pdf')).toBe('Lebenslauf – Zoë.pdf');
    expect(sanitizeFileName('e\u0301.txt')).toBe('\u00e9.txt');
  });

  it('answers "file" when nothing is left, and cuts long names keeping the extension', () => {
    expect(sanitizeFileName('../')).toBe('file');
    expect(sanitizeFileName('\u0000')).toBe('file');
    const long = sanitizeFileName(`${'a'.repeat(400)}.pdf`);
    expect([...long].length).toBe(255);
    expect(long.endsWith('.pdf')).toBe(true);
  });
});

describe('attachmentDisposition', () => {
  it('is an attachment with an ASCII fallback and the UTF-8 name, quotes and separators neutralised', () => {
    expect(attachmentDisposition('cv.pdf')).toBe(`attachment; filename="cv.pdf"; filename*=UTF-8''cv.pdf`);
    expect(attachmentDisposition('a"b;c%.pdf')).toBe(`attachment; filename="a_b_c_.pdf"; filename*=UTF-8''a%22b%3Bc%25.pdf`);
    expect(attachmentDisposition("Zoë's CV (1).pdf")).toBe(`attachment; filename="Zo_'s CV (1).pdf"; filename*=UTF-8''Zo%C3%AB%27s%20CV%20%281%29.pdf`);
  });
});

describe('plain text', () => {
  it('is valid UTF-8 without NUL or control characters, and not markup', async () => {
    expect((await detectType(Buffer.from('Ada\tLovelace\r\n')))?.format).toBe('TXT');
    expect(await detectType(Buffer.from('\ufeff  <html>'))).toBeUndefined();
    expect(await detectType(Buffer.from('<svg/>'))).toBeUndefined();
    expect(await detectType(Buffer.from([0x61, 0xff, 0x62]))).toBeUndefined();
    expect(await detectType(Buffer.from('a\u0000b'))).toBeUndefined();
  });

  it('is checked across chunks: a character split between two is fine, a bad byte later is not', () => {
    const check = new PlainTextCheck();
    const text = Buffer.from('Zürich');
    expect(check.push(text.subarray(0, 2))).toBe(true);
    expect(check.push(text.subarray(2))).toBe(true);
    expect(check.end()).toBe(true);
    const cut = new PlainTextCheck();
    expect(cut.push(Buffer.from([0x61, 0xc3]))).toBe(true);
    expect(cut.end()).toBe(false);
  });
});
