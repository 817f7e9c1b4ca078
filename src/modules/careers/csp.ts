// The careers pages' Content-Security-Policy: stricter than the API's (no script at all, no
// 'unsafe-inline' style): the served stylesheet, the one inline accent rule by its hash, images
// from this origin only, forms posted here only. Pure.
import { styleHashSource } from './style.ts';

export function careersPolicy(inlineCss: string | undefined): string {
  const styles = inlineCss === undefined ? "'self'" : `'self' ${styleHashSource(inlineCss)}`;
  return [
    "default-src 'none'",
    `style-src ${styles}`,
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
