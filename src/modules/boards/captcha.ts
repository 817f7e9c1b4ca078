// The optional CAPTCHA of board applications: Cloudflare Turnstile or hCaptcha, both checked the
// same way (their siteverify endpoint, a form POST of secret + response + remoteip, answering JSON
// with `success`). Off unless CAPTCHA_SECRET is set. The POST goes through the outbound guard with
// its deadline (built in src/deps.ts over the webhooks' transport); the secret is never logged.

export type CaptchaProvider = 'turnstile' | 'hcaptcha';

export const CAPTCHA_VERIFY_URLS: Readonly<Record<CaptchaProvider, string>> = {
  turnstile: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
};

/** passed; failed (the provider said no); unavailable (no answer in time, or not one we read). */
export type CaptchaVerdict = 'passed' | 'failed' | 'unavailable';

export interface CaptchaVerifier {
  provider: CaptchaProvider;
  /** Public: the widget on the form needs it. */
  siteKey: string;
  verify(response: string, remoteIp: string | undefined): Promise<CaptchaVerdict>;
}

/** A POST through the outbound guard (the webhooks' transport `send`): never throws for the other side's failure. */
export type GuardedPost = (
  url: string,
  headers: Record<string, string>,
  body: string,
) => Promise<{ kind: 'response'; statusCode: number; body: string } | { kind: 'failure'; failure: string }>;

/** The longest CAPTCHA answer sent on (the providers' own are about 2 KB). */
const MAX_RESPONSE_LENGTH = 4096;

export function createCaptchaVerifier(options: {
  provider: CaptchaProvider;
  secret: string;
  siteKey: string;
  verifyUrl?: string | undefined;
  post: GuardedPost;
}): CaptchaVerifier {
  const url = options.verifyUrl ?? CAPTCHA_VERIFY_URLS[options.provider];
  return {
    provider: options.provider,
    siteKey: options.siteKey,
    async verify(response, remoteIp) {
      if (response.length > MAX_RESPONSE_LENGTH) return 'failed';
      const form = new URLSearchParams({ secret: options.secret, response });
      if (remoteIp) form.set('remoteip', remoteIp);
      const answer = await options.post(url, { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, form.toString());
      if (answer.kind !== 'response' || answer.statusCode !== 200) return 'unavailable';
      try {
        const parsed = JSON.parse(answer.body) as { success?: unknown };
        if (typeof parsed.success !== 'boolean') return 'unavailable';
        return parsed.success ? 'passed' : 'failed';
      } catch {
        return 'unavailable';
      }
    },
  };
}
