// The public job board over HTTP (README.md): no key, read-only plus apply. Only HTTP here: CORS
// for the reads, caching headers, the multipart form read in order, the per-address limit of
// applications; every rule is in service.ts and form.ts.
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { perAddressLimit } from '../../http/rate-limit.ts';
import { DomainError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { CAPTCHA_FIELD_ALIASES, FIELD_MAX, FORM_FIELDS, LINKS_MAX, type ApplicationFormFields } from './form.ts';
import { ApplyMultipart, BoardJobParams, BoardJobsPage, BoardJobsQuery, BoardQuery, LogoQuery, SlugParams } from './schemas.ts';
import { applyToBoardJob, findBoardBySlug, getBoardJob, listBoardJobs, openBoardLogo, startBoardApplication } from './service.ts';

const tags = ['Job board'];
const HOUR_MS = 60 * 60 * 1000;
/** Answers may be kept this long by browsers and shared caches, then revalidated (ETag, 304). */
const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
const RESUME_FIELD = 'resume';

const cors = {
  'Access-Control-Allow-Origin': { type: 'string', description: '`*`: any site may read the board (embedding)' },
};
const contentLanguage = { 'Content-Language': { type: 'string', description: 'The language(s) of the texts in the answer' } };
const cacheControl = { 'Cache-Control': { type: 'string', description: CACHE_CONTROL } };
const readHeaders = Type.Object({
  'accept-language': Type.Optional(Type.String({ description: 'Languages wanted (`lang` takes its place when given)' })),
});

/** CORS and caching headers of a board read. */
function publicRead(reply: FastifyReply, language?: string): void {
  reply.header('Access-Control-Allow-Origin', '*');
  reply.header('Access-Control-Expose-Headers', 'ETag, Content-Language');
  reply.header('Cache-Control', CACHE_CONTROL);
  reply.header('Vary', 'Accept-Language');
  if (language) reply.header('Content-Language', language);
}

/**
 * The apply form's fields, then its résumé part (last), as a stream: the checks run before a byte
 * of it is stored. A field after the résumé, or an unknown one, is refused.
 */
async function readApplication(request: FastifyRequest): Promise<{ fields: ApplicationFormFields; resume?: MultipartFile }> {
  const fields: Record<string, string> = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const file = part as MultipartFile;
      if (file.fieldname !== RESUME_FIELD) {
        file.file.resume();
        throw ValidationError.field(file.fieldname, `is not a field of this form (the résumé part is named ${RESUME_FIELD})`);
      }
      return { fields, resume: file };
    }
    const name: string = CAPTCHA_FIELD_ALIASES[part.fieldname] ?? part.fieldname;
    if (!(FORM_FIELDS as readonly string[]).includes(name)) throw ValidationError.field(part.fieldname, 'is not a field of this form');
    if (part.valueTruncated) throw ValidationError.field(name, `must be at most ${FIELD_MAX} characters`);
    const value = String(part.value ?? '');
    // Links may come as the field repeated (one input each) or as lines of one text area.
    fields[name] = name === 'links' && fields.links !== undefined ? `${fields.links}\n${value}` : value;
  }
  return { fields };
}

export async function boardRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const { config } = app.deps;
  await app.register(multipart, {
    // One more byte than allowed reaches the service, which answers 413 (busboy only truncates).
    limits: {
      fileSize: config.fileMaxBytes + 1,
      files: 1,
      fields: FORM_FIELDS.length + LINKS_MAX,
      fieldSize: FIELD_MAX * 4,
      parts: FORM_FIELDS.length + LINKS_MAX + 1,
    },
    throwFileSizeLimit: false,
  });

  // Preflight of a cross-site read (Accept-Language, If-None-Match are not CORS-safelisted), one
  // per read path: a path's methods are its routes' (405 for the others).
  const preflights = [
    ['/boards/:slug', 'preflightBoard'],
    ['/boards/:slug/jobs', 'preflightBoardJobs'],
    ['/boards/:slug/jobs/:id', 'preflightBoardJob'],
    ['/boards/:slug/logo', 'preflightBoardLogo'],
  ] as const;
  for (const [path, operationId] of preflights) {
    app.options(
      path,
      {
        schema: {
          tags,
          operationId,
          summary: 'CORS preflight of a board read',
          description: 'What a browser asks before a cross-site read that sends Accept-Language or If-None-Match: any origin may read with GET and HEAD.',
          security: [],
          params: path.endsWith(':id') ? BoardJobParams : SlugParams,
          response: {
            204: {
              type: 'null',
              description: 'Allowed',
              headers: {
                ...cors,
                'Access-Control-Allow-Methods': { type: 'string', description: 'GET, HEAD' },
                'Access-Control-Allow-Headers': { type: 'string', description: 'Accept-Language, If-None-Match' },
                'Access-Control-Max-Age': { type: 'string', description: 'Seconds the answer may be kept: 86400' },
              },
            },
            ...errorResponses([422]),
          },
        },
      },
      async (_request, reply) =>
        reply
          .status(204)
          .header('Access-Control-Allow-Origin', '*')
          .header('Access-Control-Allow-Methods', 'GET, HEAD')
          .header('Access-Control-Allow-Headers', 'Accept-Language, If-None-Match')
          .header('Access-Control-Max-Age', '86400')
          .send(null),
    );
  }

  app.get(
    '/boards/:slug',
    {
      config: { entityTagOfBody: true },
      schema: {
        tags,
        operationId: 'getBoard',
        summary: "A company's public job board",
        description:
          "No key needed. The company's public name, intro text (in `lang`, else the best of Accept-Language, else the company's default language), logo, accent colour and privacy policy link. An unknown slug and a board that is off both answer 404. Readable from any site (CORS); cacheable (Cache-Control, ETag: send If-None-Match for a 304).",
        security: [],
        params: SlugParams,
        querystring: BoardQuery,
        headers: readHeaders,
        response: { 200: { ...Type.Ref('Board'), headers: { ...cors, ...cacheControl } }, ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const board = await findBoardBySlug(ctx, request.params.slug, { lang: request.query.lang, acceptLanguage: request.headers['accept-language'] });
      publicRead(reply, board.intro?.language);
      return board;
    },
  );

  app.get(
    '/boards/:slug/jobs',
    {
      config: { entityTagOfBody: true },
      schema: {
        tags,
        operationId: 'listBoardJobs',
        summary: "A board's open listings",
        description:
          "No key needed. The company's ACTIVE listings only, newest first, paginated like every list (`page` and `size`, or `cursor`). Filters: `workPlaceType`, `positionType`, `country` (of the address), `sectorId`, and `q` (the position contains it, as written or translated). Each position is in the best language for the caller (`lang` or Accept-Language); Content-Language lists the page's languages. Unknown slug or board off: 404. CORS and caching as GET /boards/{slug}.",
        security: [],
        params: SlugParams,
        querystring: BoardJobsQuery,
        headers: readHeaders,
        response: { 200: { ...BoardJobsPage, headers: { ...cors, ...cacheControl, ...contentLanguage } }, ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const { lang, ...query } = request.query;
      const result = await listBoardJobs(ctx, request.params.slug, query, { lang, acceptLanguage: request.headers['accept-language'] });
      publicRead(reply, result.language);
      return result.page;
    },
  );

  app.get(
    '/boards/:slug/jobs/:id',
    {
      config: { entityTagOfBody: true },
      schema: {
        tags,
        operationId: 'getBoardJob',
        summary: 'An open listing of a board',
        description:
          "No key needed. The full listing in the language asked for (`lang`, else Accept-Language; the same translation rules as GET /public/v1/job-listings/{id}), without the company's internal fields; salary fields are null unless the company shows salaries. A listing that was open and is no more (CLOSED, ARCHIVED): 410. A DRAFT, one under review, another company's listing, an unknown slug or a board that is off: 404. CORS and caching as GET /boards/{slug}.",
        security: [],
        params: BoardJobParams,
        querystring: BoardQuery,
        headers: readHeaders,
        response: { 200: { ...Type.Ref('BoardJob'), headers: { ...cors, ...cacheControl, ...contentLanguage } }, ...errorResponses([404, 410, 422]) },
      },
    },
    async (request, reply) => {
      const result = await getBoardJob(ctx, request.params.slug, request.params.id, {
        lang: request.query.lang,
        acceptLanguage: request.headers['accept-language'],
      });
      publicRead(reply, result.language);
      return result.job;
    },
  );

  app.get(
    '/boards/:slug/logo',
    {
      schema: {
        tags,
        operationId: 'getBoardLogo',
        summary: "A board's logo",
        description: 'The image (PNG, JPEG or WEBP: its type was decided from its bytes when uploaded), with `X-Content-Type-Options: nosniff`. 404 without one.',
        security: [],
        params: SlugParams,
        querystring: LogoQuery,
        response: {
          200: {
            description: 'The image',
            content: { 'image/png': { schema: Type.String({ format: 'binary' }) }, 'image/jpeg': { schema: Type.String({ format: 'binary' }) }, 'image/webp': { schema: Type.String({ format: 'binary' }) } },
            headers: { 'X-Content-Type-Options': { type: 'string', description: 'nosniff' }, ...cacheControl },
          },
          ...errorResponses([404, 422]),
        },
      },
    },
    async (request, reply) => {
      const logo = await openBoardLogo(ctx, request.params.slug);
      if (!logo) throw new NotFoundError('Logo');
      return reply
        .header('Content-Type', logo.contentType)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        // A company's own site shows it (helmet's default would be same-origin).
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('Access-Control-Allow-Origin', '*')
        // A new logo has a new URL (logoUrl's v): an old one may be kept long.
        .header('Cache-Control', request.query.v ? 'public, max-age=31536000, immutable' : CACHE_CONTROL)
        .send(logo.body as unknown as string);
    },
  );

  app.post(
    '/boards/:slug/jobs/:id/application-form',
    {
      schema: {
        tags,
        operationId: 'startBoardApplication',
        summary: 'Open the apply form of a listing',
        description:
          'No key needed. A signed token the application must carry as `formToken`: it dates when the form was shown, and an application sent sooner than BOARD_APPLY_MIN_SECONDS (3 by default) after it, or more than a day after, is refused. Also names the honeypot field to send empty. 404 and 410 as GET /boards/{slug}/jobs/{id}.',
        security: [],
        params: BoardJobParams,
        response: { 200: { ...Type.Ref('BoardApplicationForm'), headers: { 'Cache-Control': { type: 'string', description: 'no-store' } } }, ...errorResponses([404, 410, 422]) },
      },
    },
    async (request, reply) => {
      const form = await startBoardApplication(ctx, request.params.slug, request.params.id);
      reply.header('Cache-Control', 'no-store');
      return {
        ...form,
        earliestSubmitAt: new Date(Date.parse(form.notBefore) + config.boardApplyMinSeconds * 1000).toISOString(),
        honeypotField: 'website',
      };
    },
  );

  // The multipart form is read as a stream by the handler, not parsed into a body: its schema is for
  // the OpenAPI document only.
  const validators = app.validatorCompiler;
  app.post(
    '/boards/:slug/jobs/:id/applications',
    {
      onRequest: perAddressLimit({
        store: app.deps.rateLimitStore,
        clock: app.deps.clock,
        name: 'board-apply',
        perWindow: config.boardApplyPerHour,
        windowMs: HOUR_MS,
      }),
      validatorCompiler: (route) => (route.httpPart === 'body' ? () => true : validators!(route)),
      schema: {
        tags,
        operationId: 'applyToBoardJob',
        summary: 'Apply to an open listing',
        description: [
          "No key needed. `multipart/form-data`: the fields, then the résumé as the last part `resume` (optional; streamed to storage with the checks of candidate files: the type decided from the bytes, else 415; larger than FILE_MAX_BYTES: 413). The candidate is found by e-mail (without letter case) or created, as for POST /public/v1/applications; the application's source is CAREERS_PAGE; `application.created` is sent.",
          '`privacyConsent` is required (422 without). Protections, refused with 422 before anything is stored: the honeypot `website` filled in, a `formToken` missing, altered, for another listing, younger than BOARD_APPLY_MIN_SECONDS or older than a day (POST .../application-form), and, when the board asks for one (`captcha` of GET /boards/{slug}), a CAPTCHA answer its provider does not accept. At most BOARD_APPLY_PER_HOUR applications an hour from one address (10 by default): 429 with Retry-After.',
          'A second application with the same e-mail to the same listing: 409. 404 and 410 as GET /boards/{slug}/jobs/{id}.',
        ].join('\n\n'),
        security: [],
        params: BoardJobParams,
        body: { content: { 'multipart/form-data': { schema: ApplyMultipart } } },
        response: {
          201: Type.Ref('BoardApplicationReceipt'),
          ...errorResponses([404, 409, 410, 422, 429]),
          413: { ...Type.Ref('ErrorEnvelope'), description: 'The résumé is larger than FILE_MAX_BYTES' },
          415: { ...Type.Ref('ErrorEnvelope'), description: 'The résumé is not an accepted type, or the body is not multipart/form-data' },
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new DomainError('UNSUPPORTED_MEDIA_TYPE', 'Send the application as multipart/form-data');
      const { fields, resume } = await readApplication(request);
      try {
        const receipt = await applyToBoardJob(
          ctx,
          {
            slug: request.params.slug,
            jobId: request.params.id,
            fields,
            resume: resume ? { fileName: resume.filename || 'resume', content: resume.file } : undefined,
            remoteIp: request.ip,
          },
          { maxFileBytes: config.fileMaxBytes, minSecondsToSubmit: config.boardApplyMinSeconds },
        );
        return reply.status(201).send({ applicationId: receipt.applicationId, position: receipt.position });
      } catch (error) {
        // A refusal before the résumé was read: let the rest of the upload pass (nothing keeps it).
        resume?.file.resume();
        throw error;
      }
    },
  );
}
