import { describe, expect, it } from 'vitest';
import { createSecretBox, generateEncryptionKey, parseEncryptionKey } from './secret-box.ts';

const keyA = parseEncryptionKey(generateEncryptionKey());
const keyB = parseEncryptionKey(generateEncryptionKey());

describe('secret box (AES-256-GCM)', () => {
  it('seals to text that does not contain the secret and opens it again', () => {
    const box = createSecretBox(keyA);
    const sealed = box.seal('whsec_abc', 'p');
    expect(sealed).toMatch(/^enc:v1:[0-9a-f]{12}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_');
    expect(box.seal('whsec_abc', 'p')).not.toBe(sealed); // a fresh IV every time
    expect(box.open(sealed, 'p')).toBe('whsec_abc');
    expect(box.isSealed(sealed) && box.isCurrent(sealed)).toBe(true);
  });

  it('refuses a value sealed for another purpose, altered, or under an unknown key', () => {
    const box = createSecretBox(keyA);
    const sealed = box.seal('whsec_abc', 'p');
    expect(() => box.open(sealed, 'q')).toThrow(/failed authentication/);
    const last = sealed.at(-2) === 'A' ? 'B' : 'A';
    expect(() => box.open(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`, 'p')).toThrow();
    expect(() => createSecretBox(keyB).open(sealed, 'p')).toThrow(/neither ENCRYPTION_KEY/);
  });

  it('opens values under a previous key but seals under the current one only', () => {
    const old = createSecretBox(keyA).seal('s', 'p');
    const box = createSecretBox(keyB, [keyA]);
    expect(box.open(old, 'p')).toBe('s');
    expect(box.isCurrent(old)).toBe(false);
    expect(box.isCurrent(box.seal('s', 'p'))).toBe(true);
  });

  it('passes values stored before encryption through, and reads keys in base64 or hex', () => {
    expect(createSecretBox(keyA).open('whsec_clear', 'p')).toBe('whsec_clear');
    expect(parseEncryptionKey(keyA.toString('hex'))).toEqual(keyA);
    expect(() => parseEncryptionKey('too short')).toThrow(/32 bytes/);
    expect(() => parseEncryptionKey(Buffer.alloc(31).toString('base64'))).toThrow(/32 bytes/);
  });

  it('tags data under a key derived from the current one, checked under every known key', () => {
    const box = createSecretBox(keyA);
    const tag = box.tag('data', 'p');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(box.tag('data', 'p')).toBe(tag);
    expect(box.checkTag('data', tag, 'p')).toBe(true);
    expect(box.checkTag('datA', tag, 'p')).toBe(false);
    expect(box.checkTag('data', tag, 'q')).toBe(false);
    expect(box.checkTag('data', `${tag}A`, 'p')).toBe(false);
    expect(box.checkTag('data', tag.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), 'p')).toBe(false);
    expect(createSecretBox(keyB).checkTag('data', tag, 'p')).toBe(false);
    expect(createSecretBox(keyB, [keyA]).checkTag('data', tag, 'p')).toBe(true);
  });
});
