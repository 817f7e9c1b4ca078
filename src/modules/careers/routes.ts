// The hosted careers pages (README.md): HTML rendered here from the boards service's reads, the
// Apply form posted to the boards service's apply, and the sitemap and feeds. Only HTTP here:
// language choice, caching headers, the pages' own CSP, and errors shown as pages (never the API's
// JSON envelope: a candidate reads these).
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppInstance } from '../../http/app-instance.ts';
import { DomainError } from '../../shared/errors.ts';
import type { CaptchaProvider } from '../boards/captcha.ts';
import { COUNTRY_CODES } from '../reference-data/countries.ts';
import { applyErrorsOf } from './apply-errors.ts';
import { CONSENT_FIELD, HONEYPOT_FIELD, readApplyForm, TOKEN_FIELD, valuesOf, type PostedForm } from './apply.ts';
import { careersPolicy } from './csp.ts';
import { jsonFeed, rssXml, sitemapXml } from './feeds.ts';
import {
  bareNotFoundPage,
  closedPage,
  confirmationPage,
  jobPage,
  listPage,
  type ApplyForm,
  type ApplyValues,
  type ListFilters,
  type PageContext,
} from './html.ts';
import { localeFormats, translator, uiLanguageFor, UI_LANGUAGES, type LocaleFormats, type UiLanguage } from './i18n.ts';
import { jobPosting, jsonForScript } from './json-ld.ts';
import { careersUrls, type CareersBoard } from './model.ts';
import { findCareersBoard, getCareersJob, listCareersJobs, listOpenJobs, startApplication, submitApplication, type LanguageAsked } from './source.ts';
import { accentRule, CAREERS_CSS, CAREERS_CSS_PATH } from './style.ts';

const hidden = { schema: { hide: true } };

interface SlugParams {
  slug: string;
}
interface JobParams extends SlugParams {
  id: string;
}
type Query = Record<string, string | string[] | undefined>;

/** A query parameter's first value, bounded; undefined when empty. */
const one = (value: string | string[] | undefined): string | undefined => {
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text.slice(0, 200);
};

const MAX_PAGE = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * The per-address count of applications: the board API's counter (src/modules/boards/routes.ts),
 * so sending through both gives no address twice the budget.
 */
const APPLY_COUNTER = 'board-apply';
const APPLY_WINDOW_MS = 60 * 60_000;

export async function careersRoutes(app: AppInstance): Promise<void> {
  const { ctx, config } = app.deps;
  const urls = careersUrls(config.baseUrl);
  const limits = { maxFileBytes: config.fileMaxBytes, minSecondsToSubmit: config.boardApplyMinSeconds };
  const { rateLimitStore, clock } = app.deps;
  // Formatters and the country filter's options in each page language (sorted by name): built once.
  const formats = new Map<UiLanguage, LocaleFormats>(UI_LANGUAGES.map((ui) => [ui, localeFormats(ui)]));
  const countryOptions = new Map<UiLanguage, Array<[string, string]>>(
    UI_LANGUAGES.map((ui) => {
      const collator = new Intl.Collator(ui);
      const named = COUNTRY_CODES.map((code): [string, string] => [code, formats.get(ui)!.country(code)]);
      return [ui, named.sort((a, b) => collator.compare(a[1], b[1]))];
    }),
  );
  // The résumé is streamed on to the boards service; limits as the candidate files'.
  await app.register(multipart, {
    limits: { fileSize: config.fileMaxBytes + 1, files: 1, fields: 12, fieldSize: 64 * 1024, parts: 14 },
    throwFileSizeLimit: false,
  });

  /** An HTML page; `captcha`: the page carries that provider's widget (its sources join the policy). */
  function html(reply: FastifyReply, status: number, body: string, inlineCss: string | undefined, cache: string, captcha?: CaptchaProvider) {
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('content-security-policy', careersPolicy(inlineCss, captcha))
      .header('cache-control', cache)
      .header('vary', 'Accept-Language')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .send(body);
  }

  const asked = (request: FastifyRequest): LanguageAsked => ({
    lang: one((request.query as Query).lang),
    acceptLanguage: request.headers['accept-language'],
  });

  function notFound(request: FastifyRequest, reply: FastifyReply) {
    const ui = uiLanguageFor(asked(request));
    return html(reply, 404, bareNotFoundPage(translator(ui), ui), undefined, 'no-store');
  }

  function pageContext(request: FastifyRequest, board: CareersBoard, contentLanguage: string, path: string): PageContext {
    const query = request.query as Query;
    const ui = uiLanguageFor({ ...asked(request), content: contentLanguage });
    const kept = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (key !== 'lang' && one(value) !== undefined) kept.set(key, one(value)!);
    return { board, t: translator(ui), ui, formats: formats.get(ui)!, contentLanguage, urls, accentCss: accentRule(board.accentColor), path, query: kept };
  }

  const boardPath = (slug: string) => `/careers/${encodeURIComponent(slug)}`;
  const jobPath = (slug: string, id: string) => `${boardPath(slug)}/jobs/${encodeURIComponent(id)}`;

  app.get(CAREERS_CSS_PATH, hidden, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=31536000, immutable').send(CAREERS_CSS),
  );

  app.get<{ Params: SlugParams }>('/careers/:slug', hidden, async (request, reply) => {
    const query = request.query as Query;
    const filters: ListFilters = {
      q: one(query.q),
      workPlaceType: one(query.workPlaceType),
      positionType: one(query.positionType),
      country: one(query.country)?.toUpperCase(),
    };
    const requested = Number.parseInt(one(query.page) ?? '1', 10);
    const pageNumber = Number.isSafeInteger(requested) && requested >= 1 ? Math.min(requested, MAX_PAGE) : 1;
    const listed = await listCareersJobs(ctx, request.params.slug, { ...filters, page: pageNumber }, asked(request));
    if (!listed) return notFound(request, reply);
    const page = pageContext(request, listed.board, listed.language, boardPath(request.params.slug));
    const base = new URLSearchParams();
    for (const [key, value] of Object.entries(filters)) if (value) base.set(key, value);
    base.set('lang', page.ui);
    const queryOf = (n: number) => {
      const params = new URLSearchParams(base);
      if (n > 1) params.set('page', String(n));
      return params.toString();
    };
    const body = listPage(page, {
      jobs: listed.jobs,
      filters,
      countries: countryOptions.get(page.ui)!,
      total: listed.total,
      nextQuery: pageNumber < listed.totalPages ? queryOf(pageNumber + 1) : undefined,
      previousQuery: pageNumber > 1 ? queryOf(Math.min(pageNumber - 1, Math.max(1, listed.totalPages))) : undefined,
    });
    return html(reply, 200, body, page.accentCss, 'public, max-age=60');
  });

  /** A listing page: with an empty form, or the posted one again with its messages. */
  async function showJob(
    request: FastifyRequest<{ Params: JobParams }>,
    reply: FastifyReply,
    again?: { status: number; values: ApplyValues; formErrors: string[]; fieldErrors: ApplyForm['fieldErrors'] },
  ) {
    const { slug, id } = request.params;
    if (!UUID.test(id)) return notFound(request, reply);
    const found = await getCareersJob(ctx, slug, id, asked(request));
    if (found.state === 'missing') return notFound(request, reply);
    if (found.state === 'closed') return closed(request, reply);
    const page = pageContext(request, found.board, found.language, jobPath(slug, id));
    const form: ApplyForm = {
      values: again?.values ?? {},
      formErrors: again?.formErrors ?? [],
      fieldErrors: again?.fieldErrors ?? {},
      // A fresh token each time the form is shown: the minimum time counts from this showing.
      hidden: { [TOKEN_FIELD]: startApplication(ctx, slug, id) },
      honeypotName: HONEYPOT_FIELD,
      consentName: CONSENT_FIELD,
    };
    const posting = jobPosting(found.job, found.board, urls);
    const body = jobPage(page, found.job, form, posting ? jsonForScript(posting) : undefined);
    // The form carries its own start token: the page is not kept by shared caches.
    return html(reply, again?.status ?? 200, body, page.accentCss, 'private, no-cache', found.board.captcha?.provider);
  }

  async function closed(request: FastifyRequest<{ Params: JobParams }>, reply: FastifyReply) {
    const board = await findCareersBoard(ctx, request.params.slug, asked(request));
    if (!board) return notFound(request, reply);
    const page = pageContext(request, board, asked(request).lang ?? 'en', jobPath(request.params.slug, request.params.id));
    return html(reply, 410, closedPage(page), page.accentCss, 'public, max-age=300');
  }

  app.get<{ Params: JobParams }>('/careers/:slug/jobs/:id', hidden, async (request, reply) => showJob(request, reply));

  app.post<{ Params: JobParams }>(
    '/careers/:slug/jobs/:id/apply',
    { ...hidden, bodyLimit: config.fileMaxBytes + 256 * 1024 },
    async (request, reply) => {
      const { slug, id } = request.params;
      if (!UUID.test(id)) return notFound(request, reply);
      let posted: PostedForm | undefined;
      let refusal: DomainError;
      try {
        // Counted per client address before the form is read: a flood costs no parsing and no storage.
        // BOARD_APPLY_PER_HOUR, as the board API's limit; answered here as a page, not the envelope.
        const window = await rateLimitStore.hit(`${APPLY_COUNTER}:${request.ip}`, APPLY_WINDOW_MS, clock.now().getTime());
        if (window.count > config.boardApplyPerHour) {
          reply.header('retry-after', String(Math.ceil(window.resetMs / 1000)));
          throw new DomainError('TOO_MANY_REQUESTS', 'Too many applications from this address');
        }
        posted = await readApplyForm(request);
        const result = await submitApplication(ctx, { slug, jobId: id, fields: posted.fields, resume: posted.resume, remoteIp: request.ip }, limits);
        // The confirmation names the job in the language the candidate read it in.
        const shown = await getCareersJob(ctx, slug, id, asked(request));
        const board = shown.state === 'open' ? shown.board : await findCareersBoard(ctx, slug, asked(request));
        if (!board) return notFound(request, reply);
        const page = pageContext(request, board, shown.state === 'open' ? shown.language : (asked(request).lang ?? 'en'), jobPath(slug, id));
        return html(reply, 201, confirmationPage(page, shown.state === 'open' ? shown.job.title : result.position), page.accentCss, 'no-store');
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refusal = error;
      }
      if (refusal.code === 'NOT_FOUND') return notFound(request, reply);
      if ((refusal.code as string) === 'GONE') return closed(request, reply);
      const ui = uiLanguageFor(asked(request));
      const { status, formErrors, fieldErrors } = applyErrorsOf(refusal, translator(ui));
      return showJob(request, reply, { status, values: posted ? valuesOf(posted.fields) : {}, formErrors, fieldErrors });
    },
  );

  const feedCache = 'public, max-age=300';
  async function feedOf(request: FastifyRequest<{ Params: SlugParams }>, reply: FastifyReply) {
    const found = await listOpenJobs(ctx, request.params.slug, asked(request));
    if (!found) void reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found\n');
    return found;
  }
  app.get<{ Params: SlugParams }>('/careers/:slug/sitemap.xml', hidden, async (request, reply) => {
    const found = await feedOf(request, reply);
    if (!found) return reply;
    return reply.type('application/xml; charset=utf-8').header('cache-control', feedCache).send(sitemapXml(found.board, found.jobs, urls));
  });
  app.get<{ Params: SlugParams }>('/careers/:slug/feed.xml', hidden, async (request, reply) => {
    const found = await feedOf(request, reply);
    if (!found) return reply;
    return reply
      .type('application/rss+xml; charset=utf-8')
      .header('cache-control', feedCache)
      .header('vary', 'Accept-Language')
      .send(rssXml(found.board, found.jobs, urls, found.language));
  });
  app.get<{ Params: SlugParams }>('/careers/:slug/feed.json', hidden, async (request, reply) => {
    const found = await feedOf(request, reply);
    if (!found) return reply;
    return reply
      .type('application/feed+json; charset=utf-8')
      .header('cache-control', feedCache)
      .header('vary', 'Accept-Language')
      .send(JSON.stringify(jsonFeed(found.board, found.jobs, urls, found.language)));
  });
}
