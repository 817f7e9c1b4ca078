import { describe, expect, it } from 'vitest';
import { board, job, urls } from '../../../test/careers/fixtures.ts';
import { localeFormats, translator } from './i18n.ts';
import { jobPage, listPage, paragraphsHtml, type ApplyForm, type PageContext } from './html.ts';
import { jobPosting, jsonForScript } from './json-ld.ts';
import { careersPolicy } from './csp.ts';
import { accentRule } from './style.ts';

function context(ui: 'en' | 'de' = 'en'): PageContext {
  return { board, t: translator(ui), ui, formats: localeFormats(ui), contentLanguage: ui, urls, accentCss: accentRule(board.accentColor), path: '/careers/acme' };
}

const emptyForm: ApplyForm = { values: {}, formErrors: [], fieldErrors: {}, hidden: { formToken: 'token<>' }, honeypotName: 'website', consentName: 'privacyConsent' };

describe('listPage', () => {
  it('shows the jobs with links, the filters chosen, the canonical link and the feeds', () => {
    const html = listPage(context(), { jobs: [job()], filters: { workPlaceType: 'ON_SITE' }, countries: [['AT', 'Austria'], ['DE', 'Germany']], total: 1 });
    expect(html).toContain('<h1>Jobs at Acme &amp; Söhne</h1>');
    expect(html).toContain(`href="/careers/acme/jobs/${job().id}?lang=en"`);
    expect(html).toContain('<option value="ON_SITE" selected>');
    expect(html).toContain('<link rel="canonical" href="https://jobs.example.com/careers/acme">');
    expect(html).toContain('href="/careers/acme/feed.xml"');
    expect(html).toContain('<meta name="robots" content="noindex">'); // a filtered list
    expect(html).not.toMatch(/<script(?![^>]*application\/ld\+json)/);
  });

  it('speaks German', () => {
    const html = listPage(context('de'), { jobs: [], filters: {}, countries: [], total: 0 });
    expect(html).toContain('<h1>Jobs bei Acme &amp; Söhne</h1>');
    expect(html).toContain('Keine offene Stelle passt zu Ihrer Suche.');
    expect(html).not.toContain('noindex');
  });
});

describe('jobPage', () => {
  it('renders a title with markup as text, and its JSON-LD cannot break out of the script element', () => {
    const evil = job({ title: '</script><script>alert(1)</script>', description: '<img src=x onerror=alert(1)>' });
    const html = jobPage(context(), evil, emptyForm, jsonForScript(jobPosting(evil, board, urls)!));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    // Exactly one script element, the JSON-LD data block.
    expect(html.match(/<script/g)).toHaveLength(1);
    const jsonLd = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)![1];
    expect(JSON.parse(jsonLd).title).toBe(evil.title);
  });

  it('shows the form again with the values, per-field messages linked to their fields, and the privacy policy', () => {
    const form: ApplyForm = {
      ...emptyForm,
      values: { firstName: 'Zoë "Z"', email: 'zoe@example.com', consent: false },
      formErrors: ['You have already applied'],
      fieldErrors: { consent: 'Please agree' },
    };
    const html = jobPage(context(), job(), form, '{}');
    expect(html).toContain('value="Zoë &quot;Z&quot;"');
    expect(html).toContain('role="alert"');
    expect(html).toContain('<li>You have already applied</li>');
    expect(html).toContain('aria-invalid="true" aria-describedby="e-consent"');
    expect(html).toContain('href="https://acme.example/privacy"');
    expect(html).toContain('name="formToken" value="token&lt;&gt;"');
    expect(html).toContain('enctype="multipart/form-data"');
  });

  it('carries the hCaptcha widget as hCaptcha documents it, in the page language, with a line for no JavaScript', () => {
    const page = { ...context('de'), board: { ...board, captcha: { provider: 'hcaptcha' as const, siteKey: 'key"<' } } };
    const html = jobPage(page, job(), { ...emptyForm, fieldErrors: { captcha: 'Bitte erneut' } }, undefined);
    expect(html).toContain('<div class="h-captcha" data-sitekey="key&quot;&lt;"></div>');
    expect(html).toContain('<script src="https://js.hcaptcha.com/1/api.js?hl=de" async defer></script>');
    expect(html).toContain('<noscript><p class="hint">Die Spam-Prüfung dieses Formulars braucht JavaScript.');
    expect(html).toContain('<p class="error" id="e-captcha">Bitte erneut</p>');
    expect(html.indexOf('h-captcha')).toBeLessThan(html.lastIndexOf('name="resume"'));
  });
});

describe('careersPolicy', () => {
  it('allows no script and no other host without CAPTCHA; with it, exactly the provider\'s documented sources', () => {
    const css = accentRule('#123456');
    const off = careersPolicy(css);
    expect(off).toMatch(/^default-src 'none'; style-src 'self' 'sha256-[^']+'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'$/);
    const turnstile = careersPolicy(css, 'turnstile');
    expect(turnstile).toContain('script-src https://challenges.cloudflare.com;');
    expect(turnstile).toContain('frame-src https://challenges.cloudflare.com;');
    expect(turnstile).not.toContain('connect-src');
    expect(turnstile.replace(/ https:\/\/challenges\.cloudflare\.com/g, '').replace(/script-src; |frame-src; /g, '')).toBe(off);
    const hcaptcha = careersPolicy(css, 'hcaptcha');
    for (const directive of ['script-src', 'frame-src', 'connect-src']) expect(hcaptcha).toContain(`${directive} https://hcaptcha.com https://*.hcaptcha.com;`);
    expect(hcaptcha).toMatch(/style-src 'self' 'sha256-[^']+' https:\/\/hcaptcha\.com https:\/\/\*\.hcaptcha\.com;/);
    expect(hcaptcha).not.toContain('cloudflare');
  });
});

describe('paragraphsHtml', () => {
  it('splits on blank lines and keeps single line breaks', () => {
    expect(paragraphsHtml('a\nb\n\n\nc & d')).toBe('<p>a<br>b</p><p>c &amp; d</p>');
  });
});

describe('accentRule', () => {
  it('puts black text on a light accent and white on a dark one; junk gets the default', () => {
    expect(accentRule('#ffcc00')).toBe(':root{--accent:#ffcc00;--on-accent:#000000}');
    expect(accentRule('#003366')).toBe(':root{--accent:#003366;--on-accent:#ffffff}');
    expect(accentRule('red;}body{display:none')).toBe(':root{--accent:#1f6feb;--on-accent:#ffffff}');
  });
});
