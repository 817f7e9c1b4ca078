import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('social provider settings', () => {
  it('are all off by default', () => {
    expect(loadConfig({}).social).toEqual({ google: undefined, linkedin: undefined, facebook: undefined, timeoutSeconds: 10 });
  });

  it('turn a provider on with its client id and secret, at its real endpoints by default', () => {
    const social = loadConfig({
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_CLIENT_SECRET: 'gs',
      LINKEDIN_CLIENT_ID: 'l',
      LINKEDIN_CLIENT_SECRET: 'ls',
      FACEBOOK_CLIENT_ID: 'f',
      FACEBOOK_CLIENT_SECRET: 'fs',
    }).social;
    expect(social.google).toEqual({ clientId: 'g', clientSecret: 'gs', issuer: 'https://accounts.google.com', pkce: true });
    expect(social.linkedin).toEqual({ clientId: 'l', clientSecret: 'ls', issuer: 'https://www.linkedin.com/oauth', pkce: false });
    expect(social.facebook).toMatchObject({
      authorizeUrl: expect.stringMatching(/^https:\/\/www\.facebook\.com\/v\d+\.\d+\/dialog\/oauth$/),
      tokenUrl: expect.stringMatching(/^https:\/\/graph\.facebook\.com\/v\d+\.\d+\/oauth\/access_token$/),
      graphUrl: expect.stringMatching(/^https:\/\/graph\.facebook\.com\/v\d+\.\d+$/),
      pkce: true,
    });
  });

  it('take overridden endpoints (local stand-ins), without a trailing slash', () => {
    const social = loadConfig({
      GOOGLE_CLIENT_ID: 'g',
      GOOGLE_CLIENT_SECRET: 'gs',
      GOOGLE_ISSUER: 'http://127.0.0.1:4000/',
      LINKEDIN_CLIENT_ID: 'l',
      LINKEDIN_CLIENT_SECRET: 'ls',
      LINKEDIN_PKCE: 'true',
    }).social;
    expect(social.google?.issuer).toBe('http://127.0.0.1:4000');
    expect(social.linkedin?.pkce).toBe(true);
  });

  it.each([
    [{ GOOGLE_CLIENT_ID: 'g' }, 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET'],
    [{ FACEBOOK_CLIENT_SECRET: 's' }, 'FACEBOOK_CLIENT_ID and FACEBOOK_CLIENT_SECRET'],
    [{ GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 's', GOOGLE_ISSUER: 'not a url' }, 'GOOGLE_ISSUER'],
    [{ LINKEDIN_CLIENT_ID: 'l', LINKEDIN_CLIENT_SECRET: 's', LINKEDIN_ISSUER: 'ftp://x.example' }, 'LINKEDIN_ISSUER'],
    [{ SOCIAL_TIMEOUT_SECONDS: '0' }, 'SOCIAL_TIMEOUT_SECONDS'],
    [{ SOCIAL_TIMEOUT_SECONDS: '61' }, 'SOCIAL_TIMEOUT_SECONDS'],
    [{ LINKEDIN_PKCE: 'maybe' }, 'LINKEDIN_PKCE'],
    [{ FACEBOOK_PKCE: 'no' }, 'FACEBOOK_PKCE'],
  ])('refuse %j, naming the setting', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('refuse plain-http provider endpoints in production mode (they receive the client secret and codes)', () => {
    const env = {
      MODE: 'production',
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      FACEBOOK_CLIENT_ID: 'f', FACEBOOK_CLIENT_SECRET: 's', FACEBOOK_TOKEN_URL: 'http://fb.example/token',
    };
    expect(() => loadConfig(env)).toThrow('FACEBOOK_TOKEN_URL must use https:');
  });
});
