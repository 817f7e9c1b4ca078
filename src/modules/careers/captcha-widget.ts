// The Apply form's CAPTCHA widget, per provider, as each one documents its embedding: the element
// its script turns into the widget (the script then adds the answer to the form as
// `cf-turnstile-response` or `h-captcha-response`, which the form reading takes as captchaToken),
// the script's address, and the sources the page's CSP must allow for it: Turnstile script and
// frame from challenges.cloudflare.com; hCaptcha script, frame, style and connect from hcaptcha.com
// and its subdomains (it asks not to name one subdomain: they vary). Pure.
import type { CaptchaProvider } from '../boards/captcha.ts';
import { escapeHtml } from '../../shared/html-page.ts';

export type CaptchaDirective = 'script-src' | 'frame-src' | 'style-src' | 'connect-src';

interface CaptchaWidget {
  /** The widget's element (an empty div the script fills). */
  element(siteKey: string, language: string): string;
  /** The script that renders it (implicit rendering: it finds the element itself). */
  script(language: string): string;
  /** The sources to add to the page's policy, by directive. */
  sources: Partial<Record<CaptchaDirective, readonly string[]>>;
}

const TURNSTILE_HOST = 'https://challenges.cloudflare.com';
const HCAPTCHA_HOSTS = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];

export const CAPTCHA_WIDGETS: Readonly<Record<CaptchaProvider, CaptchaWidget>> = {
  turnstile: {
    element: (siteKey, language) => `<div class="cf-turnstile" data-sitekey="${escapeHtml(siteKey)}" data-language="${escapeHtml(language)}"></div>`,
    script: () => `${TURNSTILE_HOST}/turnstile/v0/api.js`,
    sources: { 'script-src': [TURNSTILE_HOST], 'frame-src': [TURNSTILE_HOST] },
  },
  hcaptcha: {
    element: (siteKey) => `<div class="h-captcha" data-sitekey="${escapeHtml(siteKey)}"></div>`,
    script: (language) => `https://js.hcaptcha.com/1/api.js?hl=${encodeURIComponent(language)}`,
    sources: { 'script-src': HCAPTCHA_HOSTS, 'frame-src': HCAPTCHA_HOSTS, 'style-src': HCAPTCHA_HOSTS, 'connect-src': HCAPTCHA_HOSTS },
  },
};
