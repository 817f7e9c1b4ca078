// The careers pages as plain template functions. Every text from a company or a candidate goes
// through escapeHtml (or jsonForScript inside JSON-LD); nothing else is ever put in raw. No
// script, except the CAPTCHA provider's on a listing page when CAPTCHA is configured: the pages
// work with JavaScript off (the Apply form then says the CAPTCHA needs it). Pure.
import { escapeHtml } from '../../shared/html-page.ts';
import { CAPTCHA_WIDGETS } from './captcha-widget.ts';
import { isMessageKey, type LocaleFormats, type Translate, type UiLanguage } from './i18n.ts';
import type { CareersBoard, CareersJob, CareersJobSummary, CareersUrls } from './model.ts';
import { CAREERS_CSS_PATH } from './style.ts';
import { POSITION_TYPES, WORK_PLACE_TYPES } from '../reference-data/enums.ts';

export { escapeHtml };

/** Plain text as paragraphs: blank lines separate them, single newlines become <br>. */
export function paragraphsHtml(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>')}</p>`)
    .join('');
}

export interface PageContext {
  board: CareersBoard;
  t: Translate;
  ui: UiLanguage;
  /** Dates, money and country names in the page language. */
  formats: LocaleFormats;
  /** The language of the content (the listing's texts); html lang. */
  contentLanguage: string;
  urls: CareersUrls;
  /** The inline accent rule (its hash is in the CSP). */
  accentCss: string;
  /** The path of this page without query, for the language links. */
  path: string;
  /** The query of this page other than lang, kept by the language links. */
  query?: URLSearchParams;
}

interface HeadExtras {
  canonical?: string;
  description?: string;
  ogType?: string;
  jsonLd?: string;
  noindex?: boolean;
}

function languageLinks(ctx: PageContext): string {
  const links = (['en', 'de'] as const).map((language) => {
    const query = new URLSearchParams(ctx.query);
    query.set('lang', language);
    const label = language === 'en' ? 'English' : 'Deutsch';
    const current = ctx.ui === language ? ' aria-current="true"' : '';
    return `<li><a href="${escapeHtml(`${ctx.path}?${query}`)}" lang="${language}" hreflang="${language}"${current}>${label}</a></li>`;
  });
  return `<ul class="langs" aria-label="${escapeHtml(ctx.t('language'))}">${links.join('')}</ul>`;
}

export function layout(ctx: PageContext, title: string, body: string, head: HeadExtras = {}): string {
  const { board } = ctx;
  const boardPath = `/careers/${encodeURIComponent(board.slug)}`;
  const meta: string[] = [];
  if (head.description) meta.push(`<meta name="description" content="${escapeHtml(head.description)}">`);
  if (head.noindex) meta.push('<meta name="robots" content="noindex">');
  if (head.canonical) {
    meta.push(`<link rel="canonical" href="${escapeHtml(head.canonical)}">`);
    meta.push(`<meta property="og:url" content="${escapeHtml(head.canonical)}">`);
  }
  meta.push(`<meta property="og:title" content="${escapeHtml(title)}">`);
  meta.push(`<meta property="og:site_name" content="${escapeHtml(board.name)}">`);
  meta.push(`<meta property="og:type" content="${head.ogType ?? 'website'}">`);
  meta.push(`<meta property="og:locale" content="${escapeHtml(ctx.contentLanguage.replace('-', '_'))}">`);
  if (head.description) meta.push(`<meta property="og:description" content="${escapeHtml(head.description)}">`);
  if (board.logoUrl) meta.push(`<meta property="og:image" content="${escapeHtml(new URL(board.logoUrl, `${ctx.urls.base}/`).href)}">`);
  meta.push(
    `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(board.name)}" href="${boardPath}/feed.xml">`,
    `<link rel="alternate" type="application/feed+json" title="${escapeHtml(board.name)}" href="${boardPath}/feed.json">`,
  );
  if (head.jsonLd) meta.push(`<script type="application/ld+json">${head.jsonLd}</script>`);
  const logo = board.logoUrl ? `<img src="${escapeHtml(board.logoUrl)}" alt="" width="120" height="40">` : '';
  return `<!doctype html>
<html lang="${escapeHtml(ctx.contentLanguage)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${CAREERS_CSS_PATH}">
<style>${ctx.accentCss}</style>
${meta.join('\n')}
</head>
<body>
<a class="skip" href="#content">${escapeHtml(ctx.t('openPositions'))}</a>
<header class="site"><div class="bar"><a class="brand" href="${boardPath}">${logo}<span>${escapeHtml(board.name)}</span></a>
<nav aria-label="${escapeHtml(ctx.t('language'))}">${languageLinks(ctx)}</nav></div></header>
<main id="content">
${body}
</main>
${footer(ctx)}
</body>
</html>`;
}

function footer(ctx: PageContext): string {
  const policy = ctx.board.privacyPolicyUrl
    ? ` · <a href="${escapeHtml(ctx.board.privacyPolicyUrl)}" rel="noopener">${escapeHtml(ctx.t('privacyPolicy'))}</a>`
    : '';
  return `<footer class="site"><p>${escapeHtml(ctx.board.name)} · ${escapeHtml(ctx.t('poweredBy'))}${policy}</p></footer>`;
}

function label(t: Translate, key: string): string {
  return isMessageKey(key) ? t(key) : key;
}

function place(job: CareersJobSummary, t: Translate): string {
  const where = [job.address?.city, job.address?.country].filter(Boolean).join(', ');
  return [where, label(t, job.workPlaceType)].filter(Boolean).join(' · ');
}

export interface ListFilters {
  q?: string;
  workPlaceType?: string;
  positionType?: string;
  country?: string;
}

export interface ListPage {
  jobs: CareersJobSummary[];
  filters: ListFilters;
  /** Countries to offer in the filter: [ISO code, name in the page language], in display order. */
  countries: Array<[string, string]>;
  total?: number;
  /** Query strings (without '?') of the neighbour pages, if any. */
  nextQuery?: string;
  previousQuery?: string;
}

function select(name: string, labelText: string, options: Array<[string, string]>, chosen: string | undefined, anyText: string): string {
  const items = [`<option value="">${escapeHtml(anyText)}</option>`]
    .concat(options.map(([value, text]) => `<option value="${escapeHtml(value)}"${value === chosen ? ' selected' : ''}>${escapeHtml(text)}</option>`))
    .join('');
  return `<div><label for="f-${name}">${escapeHtml(labelText)}</label><select id="f-${name}" name="${name}">${items}</select></div>`;
}

export function listPage(ctx: PageContext, page: ListPage): string {
  const { t, board, ui } = ctx;
  const boardPath = `/careers/${encodeURIComponent(board.slug)}`;
  const f = page.filters;
  const title = t('jobsAt', { company: board.name });
  const intro = board.intro ? `<div class="intro text">${paragraphsHtml(board.intro)}</div>` : '';
  const form = `<form class="filters" method="get" action="${boardPath}" role="search" aria-label="${escapeHtml(t('filters'))}">
<div><label for="f-q">${escapeHtml(t('searchLabel'))}</label><input id="f-q" type="search" name="q" value="${escapeHtml(f.q ?? '')}" maxlength="200"></div>
${select('workPlaceType', t('workPlace'), WORK_PLACE_TYPES.map((v) => [v, t(v)]), f.workPlaceType, t('any'))}
${select('positionType', t('positionType'), POSITION_TYPES.map((v) => [v, t(v)]), f.positionType, t('any'))}
${select('country', t('country'), page.countries, f.country, t('any'))}
<div class="actions"><input type="hidden" name="lang" value="${escapeHtml(ui)}"><button type="submit">${escapeHtml(t('applyFilters'))}</button></div>
</form>`;
  const filtered = Boolean(f.q || f.workPlaceType || f.positionType || f.country);
  const count =
    page.total === undefined ? '' : page.total === 1 ? t('jobCountOne') : t('jobCount', { count: page.total.toLocaleString(ui) });
  const items = page.jobs
    .map(
      (job) => `<li><a href="${boardPath}/jobs/${encodeURIComponent(job.id)}?lang=${encodeURIComponent(ui)}"${job.language ? ` lang="${escapeHtml(job.language)}"` : ''}>${escapeHtml(job.title)}</a>
<ul class="meta"><li>${escapeHtml(place(job, t))}</li><li>${escapeHtml(t(job.positionType))}</li></ul></li>`,
    )
    .join('\n');
  const results = page.jobs.length > 0 ? `<ul class="jobs">${items}</ul>` : `<p>${escapeHtml(t('noJobs'))}</p>`;
  const pages: string[] = [];
  if (page.previousQuery !== undefined) pages.push(`<a href="${escapeHtml(`${boardPath}?${page.previousQuery}`)}" rel="prev">${escapeHtml(t('previous'))}</a>`);
  if (page.nextQuery !== undefined) pages.push(`<a href="${escapeHtml(`${boardPath}?${page.nextQuery}`)}" rel="next">${escapeHtml(t('next'))}</a>`);
  const nav = pages.length > 0 ? `<nav class="pages" aria-label="${escapeHtml(t('pagination'))}">${pages.join('')}</nav>` : '';
  const clear = filtered ? `<p><a href="${boardPath}?lang=${ui}">${escapeHtml(t('clearFilters'))}</a></p>` : '';
  const body = `<h1>${escapeHtml(title)}</h1>
${intro}
${form}
<h2>${escapeHtml(t('openPositions'))}</h2>
${count ? `<p class="count" role="status">${escapeHtml(count)}</p>` : ''}
${clear}
${results}
${nav}`;
  return layout(ctx, title, body, {
    canonical: ctx.urls.board(board.slug),
    description: board.intro ? board.intro.slice(0, 200) : title,
    // Filtered and later pages repeat the listing pages; only the plain list is indexed.
    noindex: filtered || page.previousQuery !== undefined,
  });
}

/** The values an Apply form is shown with again after an error. */
export interface ApplyValues {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
  coverLetter?: string;
  links?: string;
  consent?: boolean;
}

export type ApplyField = 'firstName' | 'lastName' | 'email' | 'phone' | 'resume' | 'coverLetter' | 'links' | 'consent' | 'captcha';

export interface ApplyForm {
  values: ApplyValues;
  /** Messages for the whole form (duplicate, too many requests...). */
  formErrors: string[];
  /** Messages per field. */
  fieldErrors: Partial<Record<ApplyField, string>>;
  /** Hidden fields the apply check needs (the form-start token), name -> value. */
  hidden: Record<string, string>;
  /** The honeypot field's name (left empty by people; hidden from them and from screen readers). */
  honeypotName: string;
  /** The consent checkbox's name. */
  consentName: string;
}

function fieldBlock(
  field: ApplyField,
  labelText: string,
  control: (attrs: string) => string,
  form: ApplyForm,
  hint?: string,
): string {
  const error = form.fieldErrors[field];
  const described = [hint ? `h-${field}` : '', error ? `e-${field}` : ''].filter(Boolean).join(' ');
  const attrs = `id="a-${field}" name="${field}"${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}`;
  return `<div class="field"><label for="a-${field}">${escapeHtml(labelText)}</label>${control(attrs)}${
    hint ? `<p class="hint" id="h-${field}">${escapeHtml(hint)}</p>` : ''
  }${error ? `<p class="error" id="e-${field}">${escapeHtml(error)}</p>` : ''}</div>`;
}

/**
 * The CAPTCHA widget (board.captcha set), as its provider documents it: the element and the script
 * that renders it, with a line for those without JavaScript. Placed before the résumé, so the
 * widget's answer is sent before the file.
 */
function captchaHtml(ctx: PageContext, form: ApplyForm): string {
  const { t, board } = ctx;
  if (!board.captcha) return '';
  const widget = CAPTCHA_WIDGETS[board.captcha.provider];
  const error = form.fieldErrors.captcha;
  return `<div class="field captcha" role="group" aria-labelledby="a-captcha"${error ? ' aria-describedby="e-captcha"' : ''}><p class="label" id="a-captcha">${escapeHtml(t('captcha'))}</p>${widget.element(board.captcha.siteKey, ctx.ui)}<noscript><p class="hint">${escapeHtml(t('captchaNoScript'))}</p></noscript>${
    error ? `<p class="error" id="e-captcha">${escapeHtml(error)}</p>` : ''
  }</div>
<script src="${escapeHtml(widget.script(ctx.ui))}" async defer></script>`;
}

export function applyFormHtml(ctx: PageContext, job: CareersJob, form: ApplyForm): string {
  const { t, board } = ctx;
  const v = form.values;
  const action = `/careers/${encodeURIComponent(board.slug)}/jobs/${encodeURIComponent(job.id)}/apply?lang=${encodeURIComponent(ctx.ui)}`;
  const messages = [...form.formErrors, ...Object.values(form.fieldErrors)];
  const summary =
    messages.length > 0
      ? `<div class="errors" role="alert" id="form-errors" tabindex="-1"><h2>${escapeHtml(t('errorsTitle'))}</h2><ul>${messages
          .map((message) => `<li>${escapeHtml(message)}</li>`)
          .join('')}</ul></div>`
      : '';
  const text = (field: ApplyField, labelText: string, type: string, value: string | undefined, extra: string) =>
    fieldBlock(field, labelText, (attrs) => `<input ${attrs} type="${type}" value="${escapeHtml(value ?? '')}"${extra}>`, form);
  const hidden = Object.entries(form.hidden)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const policy = board.privacyPolicyUrl
    ? ` <a href="${escapeHtml(board.privacyPolicyUrl)}" rel="noopener">${escapeHtml(t('privacyPolicy'))}</a>`
    : '';
  const consentError = form.fieldErrors.consent;
  return `<form class="apply" id="apply" method="post" action="${escapeHtml(action)}" enctype="multipart/form-data" aria-labelledby="apply-title">
<h2 id="apply-title">${escapeHtml(t('applyFor'))}</h2>
${summary}
${hidden}
<p class="hint">${escapeHtml(t('requiredNote'))}</p>
<div class="row">${text('firstName', t('firstName'), 'text', v.firstName, ' required maxlength="100" autocomplete="given-name"')}${text('lastName', t('lastName'), 'text', v.lastName, ' required maxlength="100" autocomplete="family-name"')}</div>
<div class="row">${text('email', t('email'), 'email', v.email, ' required maxlength="254" autocomplete="email"')}${text('phone', t('phone'), 'tel', v.phone, ' maxlength="50" autocomplete="tel"')}</div>
${fieldBlock('coverLetter', t('coverLetter'), (attrs) => `<textarea ${attrs} maxlength="20000">${escapeHtml(v.coverLetter ?? '')}</textarea>`, form)}
${fieldBlock('links', t('links'), (attrs) => `<textarea ${attrs} maxlength="2000" rows="3">${escapeHtml(v.links ?? '')}</textarea>`, form)}
<div class="trap" aria-hidden="true"><label for="a-trap">${escapeHtml(t('honeypot'))}</label><input id="a-trap" type="text" name="${escapeHtml(form.honeypotName)}" value="" tabindex="-1" autocomplete="off"></div>
<div class="field"><div class="consent"><input id="a-consent" type="checkbox" name="${escapeHtml(form.consentName)}" value="true" required${v.consent ? ' checked' : ''}${
    consentError ? ' aria-invalid="true" aria-describedby="e-consent"' : ''
  }><label for="a-consent">${escapeHtml(t('consent', { company: board.name }))}</label></div>${policy ? `<p class="hint">${policy}</p>` : ''}${
    consentError ? `<p class="error" id="e-consent">${escapeHtml(consentError)}</p>` : ''
  }</div>
${captchaHtml(ctx, form)}
${fieldBlock('resume', t('resume'), (attrs) => `<input ${attrs} type="file" required accept=".pdf,.doc,.docx,.odt,.rtf,.txt">`, form)}
<button type="submit">${escapeHtml(t('submit'))}</button>
</form>`;
}

function facts(ctx: PageContext, job: CareersJob): string {
  const { t } = ctx;
  const rows: Array<[string, string]> = [];
  const where = [job.address?.city, job.address?.state, job.address?.country ? ctx.formats.country(job.address.country) : undefined]
    .filter(Boolean)
    .join(', ');
  rows.push([t('location'), [where, t(job.workPlaceType)].filter(Boolean).join(' · ')]);
  rows.push([t('positionType'), t(job.positionType)]);
  if (job.salary) {
    const amount =
      job.salary.max !== undefined && job.salary.max !== job.salary.min
        ? `${ctx.formats.money(job.salary.min, job.salary.currency)} – ${ctx.formats.money(job.salary.max, job.salary.currency)}`
        : ctx.formats.money(job.salary.min, job.salary.currency);
    const interval = job.salary.interval ? ` ${label(t, job.salary.interval)}` : '';
    rows.push([t('salary'), `${amount}${interval}`]);
  }
  rows.push([t('posted'), ctx.formats.date(job.publishedAt)]);
  if (job.validThrough) rows.push([t('applyBy'), ctx.formats.date(job.validThrough)]);
  return `<dl class="facts">${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${escapeHtml(value)}</dd>`).join('')}</dl>`;
}

export function jobPage(ctx: PageContext, job: CareersJob, form: ApplyForm, jsonLd: string | undefined): string {
  const { t, board } = ctx;
  const boardPath = `/careers/${encodeURIComponent(board.slug)}`;
  const sections: string[] = [`<h2>${escapeHtml(t('aboutRole'))}</h2><div class="text">${paragraphsHtml(job.description)}</div>`];
  if (job.requirementsSummary) sections.push(`<h2>${escapeHtml(t('requirements'))}</h2><div class="text">${paragraphsHtml(job.requirementsSummary)}</div>`);
  if (job.personalQualitiesSummary) {
    sections.push(`<h2>${escapeHtml(t('personalQualities'))}</h2><div class="text">${paragraphsHtml(job.personalQualitiesSummary)}</div>`);
  }
  if (job.skills.length > 0) sections.push(`<h2>${escapeHtml(t('skills'))}</h2><ul>${job.skills.map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>`);
  if (job.benefits.length > 0) sections.push(`<h2>${escapeHtml(t('benefits'))}</h2><ul>${job.benefits.map((b) => `<li>${escapeHtml(b)}</li>`).join('')}</ul>`);
  if (job.salary?.description) sections.push(`<div class="text">${paragraphsHtml(job.salary.description)}</div>`);
  const body = `<p><a href="${boardPath}?lang=${encodeURIComponent(ctx.ui)}">← ${escapeHtml(t('backToJobs'))}</a></p>
<article class="job">
<h1>${escapeHtml(job.title)}</h1>
${facts(ctx, job)}
<p><a class="button" href="#apply">${escapeHtml(t('apply'))}</a></p>
${sections.join('\n')}
</article>
${applyFormHtml(ctx, job, form)}`;
  const description = job.description.replace(/\s+/g, ' ').trim().slice(0, 200);
  return layout(ctx, `${job.title} – ${board.name}`, body, {
    canonical: ctx.urls.job(board.slug, job.id),
    description,
    ogType: 'article',
    ...(jsonLd ? { jsonLd } : {}),
    // A page re-shown with errors is no page of its own.
    noindex: form.formErrors.length > 0 || Object.keys(form.fieldErrors).length > 0,
  });
}

export function confirmationPage(ctx: PageContext, jobTitle: string): string {
  const { t, board } = ctx;
  const title = t('thanksTitle');
  const body = `<div class="notice" role="status"><h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(t('thanks', { job: jobTitle, company: board.name }))}</p>
<p><a href="/careers/${encodeURIComponent(board.slug)}?lang=${encodeURIComponent(ctx.ui)}">${escapeHtml(t('backToJobs'))}</a></p></div>`;
  return layout(ctx, title, body, { noindex: true });
}

export function closedPage(ctx: PageContext): string {
  const { t, board } = ctx;
  const body = `<div class="notice"><h1>${escapeHtml(t('closedTitle'))}</h1><p>${escapeHtml(t('closed'))}</p>
<p><a href="/careers/${encodeURIComponent(board.slug)}?lang=${encodeURIComponent(ctx.ui)}">${escapeHtml(t('backToJobs'))}</a></p></div>`;
  return layout(ctx, t('closedTitle'), body, { noindex: true });
}

/** 404 without a board to dress it in (unknown slug, board off). */
export function bareNotFoundPage(t: Translate, language: UiLanguage): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t('notFoundTitle'))}</title>
<link rel="stylesheet" href="${CAREERS_CSS_PATH}">
</head>
<body><main><h1>${escapeHtml(t('notFoundTitle'))}</h1><p>${escapeHtml(t('notFound'))}</p></main></body>
</html>`;
}
