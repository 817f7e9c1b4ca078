import { describe, expect, it } from 'vitest';
import { ProviderAnswerError, profileFromFacebook, profileFromOidcClaims } from './profile.ts';

describe('profileFromOidcClaims', () => {
  it('takes Google claims: verified only when email_verified is exactly true', () => {
    const profile = profileFromOidcClaims('google', {
      sub: '1081',
      email: ' Ada@Example.COM ',
      email_verified: true,
      name: 'Ada Lovelace',
      picture: 'https://lh3.googleusercontent.com/a/x',
    });
    expect(profile).toEqual({
      provider: 'google',
      subject: '1081',
      email: 'ada@example.com',
      emailVerified: true,
      name: 'Ada Lovelace',
      picture: 'https://lh3.googleusercontent.com/a/x',
    });
    expect(profileFromOidcClaims('google', { sub: '1', email: 'a@b.co', email_verified: false }).emailVerified).toBe(false);
    expect(profileFromOidcClaims('google', { sub: '1', email: 'a@b.co' }).emailVerified).toBe(false);
    expect(profileFromOidcClaims('google', { sub: '1', email: 'a@b.co', email_verified: 'yes' }).emailVerified).toBe(false);
  });

  it('accepts LinkedIn\'s email_verified sent as the string "true" and builds a name from its parts', () => {
    const profile = profileFromOidcClaims('linkedin', {
      sub: 'abc',
      email: 'b@example.com',
      email_verified: 'true',
      given_name: 'Grace',
      family_name: 'Hopper',
    });
    expect(profile).toMatchObject({ emailVerified: true, name: 'Grace Hopper' });
  });

  it('is never verified without a plausible address', () => {
    expect(profileFromOidcClaims('google', { sub: '1', email_verified: true })).toMatchObject({ email: undefined, emailVerified: false });
    expect(profileFromOidcClaims('google', { sub: '1', email: 'not an address', email_verified: true }).emailVerified).toBe(false);
    expect(profileFromOidcClaims('google', { sub: '1', email: `${'a'.repeat(250)}@b.co`, email_verified: true }).emailVerified).toBe(false);
  });

  it('keeps only https pictures and bounded names', () => {
    expect(profileFromOidcClaims('google', { sub: '1', picture: 'javascript:alert(1)' }).picture).toBeUndefined();
    expect(profileFromOidcClaims('google', { sub: '1', picture: 'http://x.example/p.png' }).picture).toBeUndefined();
    expect(profileFromOidcClaims('google', { sub: '1', name: 'x'.repeat(201) }).name).toBeUndefined();
  });

  it('refuses an answer without a subject', () => {
    expect(() => profileFromOidcClaims('google', { email: 'a@b.co' })).toThrow(ProviderAnswerError);
    expect(() => profileFromOidcClaims('google', { sub: '' })).toThrow(ProviderAnswerError);
  });
});

describe('profileFromFacebook', () => {
  it('counts a returned e-mail as verified (Facebook returns confirmed addresses only)', () => {
    const profile = profileFromFacebook({
      id: '10229',
      name: 'Alan Turing',
      email: 'Alan@Example.com',
      picture: { data: { url: 'https://platform-lookaside.fbsbx.com/p.jpg', is_silhouette: false } },
    });
    expect(profile).toEqual({
      provider: 'facebook',
      subject: '10229',
      email: 'alan@example.com',
      emailVerified: true,
      name: 'Alan Turing',
      picture: 'https://platform-lookaside.fbsbx.com/p.jpg',
    });
  });

  it('has no verified e-mail when Facebook leaves the field out, and drops the default silhouette', () => {
    const profile = profileFromFacebook({ id: '5', name: 'No Mail', picture: { data: { url: 'https://x.example/s.png', is_silhouette: true } } });
    expect(profile).toMatchObject({ email: undefined, emailVerified: false, picture: undefined });
  });
});
