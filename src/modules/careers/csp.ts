// The careers pages' Content-Security-Policy: stricter than the API's (no 'unsafe-inline' style):
// the served stylesheet, the one inline accent rule by its hash, images from this origin only,
// forms posted here only. No script at all, except on a listing page whose Apply form carries the
// CAPTCHA widget (CAPTCHA configured): then that provider's documented sources, and no other. Pure.
import type { CaptchaProvider } from '../boards/captcha.ts';
import { CAPTCHA_WIDGETS, type CaptchaDirective } from './captcha-widget.ts';
import { styleHashSource } from './style.ts';

export function careersPolicy(inlineCss: string | undefined, captcha?: CaptchaProvider): string {
  const extra = captcha ? CAPTCHA_WIDGETS[captcha].sources : {};
  const directive = (name: CaptchaDirective, own: string[]) => {
    const sources = [...own, ...(extra[name] ?? [])];
    return sources.length > 0 ? [`${name} ${sources.join(' ')}`] : [];
  };
  return [
    "default-src 'none'",
    ...directive('script-src', []),
    ...directive('style-src', inlineCss === undefined ? ["'self'"] : ["'self'", styleHashSource(inlineCss)]),
    "img-src 'self'",
    ...directive('frame-src', []),
    ...directive('connect-src', []),
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
