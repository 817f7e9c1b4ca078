// The careers pages' stylesheet, served from this origin under a name carrying its hash (cached
// for a year), and the one inline rule, the company's accent colour, allowed by its own hash in
// the page's Content-Security-Policy (no 'unsafe-inline'). Pure.
import { createHash } from 'node:crypto';

export const CAREERS_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1f2328;background:#f6f7f9}
a{color:#0b57d0}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0}
.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:2}
header.site{background:#fff;border-top:6px solid var(--accent);border-bottom:1px solid #d8dee4}
.bar{max-width:960px;margin:0 auto;padding:12px 16px;display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.brand{display:flex;gap:12px;align-items:center;color:inherit;text-decoration:none;font-weight:700;font-size:1.15rem;margin-right:auto}
.brand img{height:40px;width:auto;max-width:160px;object-fit:contain}
.langs{display:flex;gap:8px;list-style:none;margin:0;padding:0;font-size:.9rem}
.langs a[aria-current]{font-weight:700;color:#1f2328;text-decoration:none}
main{max-width:960px;margin:0 auto;padding:24px 16px 48px}
h1{font-size:1.8rem;line-height:1.25;margin:0 0 12px}
h2{font-size:1.25rem;margin:28px 0 8px}
.intro{max-width:70ch;color:#424a53}
.filters{display:grid;grid-template-columns:2fr 1fr 1fr 1fr auto;gap:12px;align-items:end;background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:16px;margin:20px 0}
.filters .actions{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
label{display:block;font-weight:600;font-size:.92rem;margin:0 0 4px}
input,select,textarea{display:block;width:100%;font:inherit;color:inherit;padding:9px 11px;border:1px solid #8c959f;border-radius:8px;background:#fff}
textarea{min-height:120px;resize:vertical}
input[type=checkbox]{display:inline-block;width:20px;height:20px;margin:0 8px 0 0;vertical-align:top;flex:none}
input[type=file]{padding:7px}
.button,button{display:inline-block;font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:2px solid var(--accent);background:var(--accent);color:var(--on-accent);cursor:pointer;text-decoration:none;min-height:44px}
.count{color:#424a53;margin:0 0 8px}
ul.jobs{list-style:none;margin:0;padding:0;display:grid;gap:10px}
ul.jobs>li{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:14px 16px}
ul.jobs>li>a{font-weight:650;font-size:1.08rem}
.meta{display:flex;flex-wrap:wrap;gap:6px 16px;color:#424a53;font-size:.92rem;margin:4px 0 0;padding:0;list-style:none}
nav.pages{display:flex;justify-content:space-between;margin:20px 0}
article.job{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:20px 24px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:12px 0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.text p{margin:0 0 12px;max-width:75ch}
form.apply{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:20px 24px;margin-top:24px}
form.apply>h2:first-child{margin-top:0}
.field{margin:0 0 16px}
.row{display:grid;grid-template-columns:1fr 1fr;gap:16px}
.consent{display:flex;align-items:flex-start}
.consent label{font-weight:400}
.hint{font-size:.88rem;color:#424a53;margin:4px 0 0}
.error{color:#b3261e;font-weight:600;margin:4px 0 0}
[aria-invalid=true]{border-color:#b3261e;border-width:2px}
.errors{border:2px solid #b3261e;background:#fff5f5;border-radius:10px;padding:12px 16px;margin:0 0 16px}
.errors h2{margin:0 0 6px;font-size:1.1rem;color:#b3261e}
.captcha .label{font-weight:600;font-size:.92rem;margin:0 0 4px}
.trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.notice{background:#fff;border:1px solid #d8dee4;border-radius:10px;padding:24px}
footer.site{max-width:960px;margin:0 auto;padding:0 16px 32px;font-size:.9rem;color:#424a53}
@media (max-width:720px){
h1{font-size:1.5rem}
.filters{grid-template-columns:1fr}
.row{grid-template-columns:1fr}
article.job,form.apply{padding:16px}
dl.facts{grid-template-columns:1fr}
dl.facts dd{margin:0 0 6px}
}`;

const cssHash = createHash('sha256').update(CAREERS_CSS).digest('hex').slice(0, 12);

/** The stylesheet's path: a new name whenever its content changes, so it can be cached for good. */
export const CAREERS_CSS_PATH = `/careers/assets/careers-${cssHash}.css`;

/** #rrggbb, or undefined for anything else (the setting is free text to us). */
export function parseHexColor(value: string | undefined): [number, number, number] | undefined {
  const match = value ? /^#?([0-9a-f]{6})$/i.exec(value.trim()) : null;
  if (!match) return undefined;
  const n = Number.parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance([r, g, b]: [number, number, number]): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.039_28 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export const DEFAULT_ACCENT = '#1f6feb';

/**
 * The inline rule setting the accent and the text colour on it: black or white, whichever
 * contrasts more (WCAG's ratio), so any colour a company picks keeps its buttons readable.
 */
export function accentRule(accent: string | undefined): string {
  const rgb = parseHexColor(accent) ?? parseHexColor(DEFAULT_ACCENT)!;
  const hex = `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
  const l = luminance(rgb);
  const onAccent = (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? '#000000' : '#ffffff';
  return `:root{--accent:${hex};--on-accent:${onAccent}}`;
}

/** The CSP source allowing one inline <style> element's text. */
export function styleHashSource(css: string): string {
  return `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
}
