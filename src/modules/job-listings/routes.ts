// HTTP surface of job listings: schema + one service call per route. The rules are in
// the files service.ts exposes (commands, moves, presenter) and lifecycle.ts; the descriptions below are the OpenAPI
// documentation integrators read.
import { Type } from 'typebox';
import type { FastifyReply } from 'fastify';
import type { AppInstance } from '../../http/app-instance.ts';
import { auditActorOf } from '../../http/actor.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { Paginated } from '../../http/pagination.ts';
import {
  CreateJobListingBody,
  ListJobListingsQuery,
  ListingIdParams,
  ListingTranslationsResponse,
  PutTranslationBody,
  RejectListingBody,
  TranslationParams,
  UpdateJobListingBody,
} from './schemas.ts';
import {
  approveJobListing,
  archiveJobListing,
  closeJobListing,
  createJobListing,
  deleteJobListing,
  getJobListing,
  jobListingFieldProblems,
  listingTag,
  listJobListings,
  listJobListingTranslations,
  publishJobListing,
  putJobListingTranslation,
  rejectJobListing,
  updateJobListing,
} from './service.ts';

const TAG = 'Job listings';

export const LIFECYCLE_DOC = `**Lifecycle.** A listing is created as DRAFT. \`publish\` moves DRAFT -> ACTIVE, or DRAFT -> UNDER_REVIEW when the company requires listing review (a company setting, off by default; an admin then approves -> ACTIVE or rejects -> DRAFT with a reason, shown in \`rejectionReason\`). \`publish\` on a CLOSED listing reopens it (ACTIVE; UNDER_REVIEW if review is required and it was never approved). Publishing an ACTIVE listing is a 200 no-op. \`close\`: ACTIVE or UNDER_REVIEW -> CLOSED. \`archive\`: any status but ARCHIVED -> ARCHIVED, after which the listing is read-only. \`DELETE\` removes a DRAFT only. Any other move answers 409 CONFLICT naming the current status. \`publishedAt\` is set when the listing first becomes ACTIVE; \`closedAt\` when it closes; \`expiresAt\` is the end (UTC) of \`jobListingEndDate\` when set, else 60 days after the listing (re)became ACTIVE. An ACTIVE listing past \`expiresAt\` is closed automatically. Publishing a listing whose \`jobListingEndDate\` has passed answers 422.`;

export const LANGUAGE_DOC = `**Languages.** Texts are written in the listing's source \`language\` (set on create; default the company's default language). Send \`Accept-Language\` (q-values honoured; de-CH falls back to de) to read them in another language; the response names the language served in \`Content-Language\`. Each text object carries \`value\` (the translation when one exists, else the original with \`translated: false\`), \`original\` and \`sourceLanguage\`. \`translationType\` is HUMAN for translations given through PUT .../translations/{lang} and AI for machine translations, made only when the server is configured with a translation service (none by default): then a listing's texts are translated when they are written (into the server's configured languages and each language the listing has a human translation in) and kept. A read never translates: it serves what is stored, else the caller's next acceptable language, else the original. A HUMAN translation always wins over an AI one. Editing an original retires its translations.`;

const acceptLanguageHeader = Type.Object({
  'accept-language': Type.Optional(
    Type.String({ description: 'Languages wanted, e.g. `de-CH, de;q=0.9, en;q=0.5`; see the language rules.' }),
  ),
});

const contentLanguage = {
  'Content-Language': { type: 'string', description: 'The language of the texts in the response' },
};

const listing = (description: string) => ({ ...Type.Ref('JobListing'), description, headers: contentLanguage });
const etagHeader = {
  ETag: { type: 'string', description: 'Version of this representation (the listing in this language): send it as If-Match on PATCH' },
};
const taggedListing = (description: string) => ({ ...listing(description), headers: { ...contentLanguage, ...etagHeader } });
const patchHeaders = Type.Object({
  ...acceptLanguageHeader.properties,
  'if-match': Type.Optional(
    Type.String({
      maxLength: 1000,
      description:
        'The ETag of the listing as last read (GET, in the same Accept-Language): the update happens only if the listing is still in that version, else 412. `*` matches any version.',
    }),
  ),
});

function withLanguage(reply: FastifyReply, language: string): void {
  reply.header('content-language', language);
  reply.header('vary', 'Accept-Language');
}

export async function jobListingRoutes(app: AppInstance): Promise<void> {
  const { ctx } = app;
  const read = { scope: 'jobs:read' } as const;
  const write = { scope: 'jobs:write' } as const;

  app.get(
    '/public/v1/job-listings',
    {
      config: { auth: read },
      schema: {
        tags: [TAG],
        operationId: 'listJobListings',
        summary: 'List job listings',
        description: `The company's listings, newest first (createdAt descending, then id); with \`updatedSince\`, in the order they changed ((updatedAt, id) ascending) so a sync can resume from \`resumeCursor\`. Filters: \`status\` (repeatable; ARCHIVED listings are listed only when asked for by status), \`workPlaceType\` and \`positionType\` (repeatable: any of the values given), \`updatedSince\` and \`q\` (the position contains it, case-insensitively, as written or translated). Page by \`page\` or by \`cursor\` (\`nextCursor\` of the previous page). Items carry exactly id, status, position (value and translated only), positionType, workPlaceType and createdAt; each position is in the best language available for that listing, and \`Content-Language\` lists the languages of the page.\n\n${LANGUAGE_DOC}`,
        querystring: ListJobListingsQuery,
        headers: acceptLanguageHeader,
        response: {
          200: { ...Paginated(Type.Ref('JobListingListItem')), description: 'A page of listings', headers: contentLanguage },
          ...errorResponses([422]),
        },
      },
    },
    async (request, reply) => {
      const { page, language } = await listJobListings(ctx, principalOf(request).companyId, request.query, {
        acceptLanguage: request.headers['accept-language'],
      });
      withLanguage(reply, language);
      return page;
    },
  );

  app.post(
    '/public/v1/job-listings',
    {
      config: { auth: write, bodyChecks: (body) => jobListingFieldProblems(ctx, body) },
      schema: {
        tags: [TAG],
        operationId: 'createJobListing',
        summary: 'Create a job listing (DRAFT)',
        description: `Creates a DRAFT and answers 201 with the full listing. Required: position, positionType, workPlaceType; everything else is optional. Texts are plain strings in \`language\`. \`currency\` is an ISO 4217 code, \`salaryMax\` must be >= \`salaryBase\`, dates are YYYY-MM-DD, \`sectorId\` and tag ids must exist (422 naming the field). Unknown fields answer 422.\n\n${LIFECYCLE_DOC}`,
        body: CreateJobListingBody,
        headers: acceptLanguageHeader,
        response: { 201: listing('The new listing'), ...errorResponses([400, 413, 415, 422]) },
      },
    },
    async (request, reply) => {
      const result = await createJobListing(ctx, principalOf(request).companyId, request.body, {
        acceptLanguage: request.headers['accept-language'],
      });
      withLanguage(reply, result.language);
      return reply.status(201).send(result.listing);
    },
  );

  app.get(
    '/public/v1/job-listings/:id',
    {
      config: { auth: read },
      schema: {
        tags: [TAG],
        operationId: 'getJobListing',
        summary: 'Get a job listing',
        description: `The full listing, its texts in the language asked for.\n\n${LANGUAGE_DOC}`,
        params: ListingIdParams,
        headers: acceptLanguageHeader,
        response: { 200: taggedListing('The listing'), ...errorResponses([404, 422]) },
      },
    },
    async (request, reply) => {
      const result = await getJobListing(
        ctx,
        principalOf(request).companyId,
        request.params.id,
        request.headers['accept-language'],
      );
      withLanguage(reply, result.language);
      reply.header('ETag', listingTag(result));
      return result.listing;
    },
  );

  app.patch(
    '/public/v1/job-listings/:id',
    {
      config: { auth: write, bodyChecks: (body) => jobListingFieldProblems(ctx, body) },
      schema: {
        tags: [TAG],
        operationId: 'updateJobListing',
        summary: 'Update a job listing (merge)',
        description:
          'Partial update: fields left out keep their value, `null` clears a field, `address` merges part by part, arrays (skills, benefits, hiringProcessSteps, jobListingTags, jobListingRequirements) replace the whole list. Texts are in the listing\'s source language; changing one retires its translations. Allowed in every status but ARCHIVED (409). Validation as on create. Optimistic concurrency: send the `ETag` of your last read as `If-Match` and the update happens only if nobody changed the listing since (else 412 PRECONDITION_FAILED); the answer carries the new ETag.',
        params: ListingIdParams,
        body: UpdateJobListingBody,
        headers: patchHeaders,
        response: { 200: taggedListing('The updated listing'), ...errorResponses([400, 404, 409, 412, 413, 415, 422]) },
      },
    },
    async (request, reply) => {
      const result = await updateJobListing(ctx, principalOf(request).companyId, request.params.id, request.body, {
        acceptLanguage: request.headers['accept-language'],
        ifMatch: request.headers['if-match'],
      });
      withLanguage(reply, result.language);
      reply.header('ETag', listingTag(result));
      return result.listing;
    },
  );

  const moves = [
    {
      path: 'publish',
      operationId: 'publishJobListing',
      summary: 'Publish a job listing',
      description:
        'DRAFT -> ACTIVE (or UNDER_REVIEW when the company requires listing review); CLOSED -> ACTIVE reopens. Publishing an ACTIVE listing answers 200 and changes nothing. UNDER_REVIEW or ARCHIVED: 409. A listing whose jobListingEndDate has passed: 422. No body.',
      run: publishJobListing,
      errors: [404, 409, 422],
    },
    {
      path: 'close',
      operationId: 'closeJobListing',
      summary: 'Close a job listing',
      description: 'ACTIVE or UNDER_REVIEW -> CLOSED (sets closedAt); it stops accepting applications and can be reopened with publish. Any other status: 409. No body.',
      run: closeJobListing,
      errors: [404, 409],
    },
    {
      path: 'archive',
      operationId: 'archiveJobListing',
      summary: 'Archive a job listing',
      description: 'Any status but ARCHIVED -> ARCHIVED. An archived listing is read-only and is listed only when asked for with status=ARCHIVED. Already ARCHIVED: 409. No body.',
      run: archiveJobListing,
      errors: [404, 409],
    },
  ] as const;

  for (const move of moves) {
    app.post(
      `/public/v1/job-listings/:id/${move.path}`,
      {
        config: { auth: write },
        schema: {
          tags: [TAG],
          operationId: move.operationId,
          summary: move.summary,
          description: `${move.description}\n\n${LIFECYCLE_DOC}`,
          params: ListingIdParams,
          headers: acceptLanguageHeader,
          response: { 200: listing('The listing after the move'), ...errorResponses([...move.errors, 415]) },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const result = await move.run(ctx, principal.companyId, request.params.id, {
          acceptLanguage: request.headers['accept-language'],
          actor: await auditActorOf(ctx, principal),
        });
        withLanguage(reply, result.language);
        return result.listing;
      },
    );
  }

  app.delete(
    '/public/v1/job-listings/:id',
    {
      config: { auth: write },
      schema: {
        tags: [TAG],
        operationId: 'deleteJobListing',
        summary: 'Delete a draft job listing',
        description: 'Deletes a DRAFT (204). A listing in any other status answers 409: archive it instead.',
        params: ListingIdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses([404, 409]) },
      },
    },
    async (request, reply) => {
      await deleteJobListing(ctx, principalOf(request).companyId, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/public/v1/job-listings/:id/translations',
    {
      config: { auth: read },
      schema: {
        tags: [TAG],
        operationId: 'listJobListingTranslations',
        summary: "List the languages of a job listing's translations",
        description:
          "The languages the listing's current texts have stored translations in (human or machine), one entry per language, sorted by language tag; the source language is never listed. `translationType` is HUMAN when any text has a human translation into that language (a human one wins when reading), else AI; `updatedAt` is when the latest translation into it was stored. Not paginated: a listing has few languages. Read the texts themselves with GET /public/v1/job-listings/{id} and Accept-Language.",
        params: ListingIdParams,
        response: { 200: { ...ListingTranslationsResponse, description: "The listing's translation languages" }, ...errorResponses([404, 422]) },
      },
    },
    async (request) => listJobListingTranslations(ctx, principalOf(request).companyId, request.params.id),
  );

  app.put(
    '/public/v1/job-listings/:id/translations/:lang',
    {
      config: { auth: write },
      schema: {
        tags: [TAG],
        operationId: 'putJobListingTranslation',
        summary: 'Put a human translation of a job listing',
        description: `Stores a HUMAN translation of the listing's texts into {lang} (a BCP 47 tag other than the source language), replacing any earlier human translation into it; texts left out have no human translation afterwards. Give only texts the listing has (422 otherwise); \`benefits\` and \`skills\` need one entry per item, in order; hiring process steps are named by id. Not allowed on ARCHIVED listings (409). Answers the listing in {lang} unless Accept-Language asks otherwise.\n\n${LANGUAGE_DOC}`,
        params: TranslationParams,
        body: PutTranslationBody,
        headers: acceptLanguageHeader,
        response: { 200: listing('The listing, in the language of the translation'), ...errorResponses([400, 404, 409, 413, 415, 422]) },
      },
    },
    async (request, reply) => {
      const result = await putJobListingTranslation(
        ctx,
        principalOf(request).companyId,
        request.params.id,
        request.params.lang,
        request.body,
        { acceptLanguage: request.headers['accept-language'] },
      );
      withLanguage(reply, result.language);
      return result.listing;
    },
  );
}

/**
 * Listing review under /settings (the dashboard): for a signed-in user's access token, an ADMIN
 * only (an API key never can: review exists so that a person vouches for what integrations post).
 * Registered beside the company settings routes, so the API document keeps its order.
 */
export async function listingReviewRoutes(app: AppInstance): Promise<void> {
  const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;
  app.post(
    '/settings/job-listings/:id/approve',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'approveJobListing',
        tags: ['Listing review'],
        summary: 'Approve a listing waiting for review',
        description: 'UNDER_REVIEW -> ACTIVE (published). Any other status: 409. A listing whose jobListingEndDate has passed: 422. No body.',
        params: ListingIdParams,
        response: { 200: Type.Ref('JobListing'), ...errorResponses([404, 409, 415, 422]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const result = await approveJobListing(app.ctx, principal.companyId, request.params.id, {
        acceptLanguage: request.headers['accept-language'],
        actor: await auditActorOf(app.ctx, principal),
      });
      reply.header('content-language', result.language);
      return result.listing;
    },
  );

  app.post(
    '/settings/job-listings/:id/reject',
    {
      config: { auth: adminOnly },
      schema: {
        operationId: 'rejectJobListing',
        tags: ['Listing review'],
        summary: 'Reject a listing waiting for review',
        description: 'UNDER_REVIEW -> DRAFT, with the reason shown in rejectionReason until the listing is published again. Any other status: 409.',
        params: ListingIdParams,
        body: RejectListingBody,
        response: { 200: Type.Ref('JobListing'), ...errorResponses([400, 404, 409, 415, 422]) },
      },
    },
    async (request, reply) => {
      const result = await rejectJobListing(app.ctx, principalOf(request).companyId, request.params.id, request.body.reason, {
        acceptLanguage: request.headers['accept-language'],
      });
      reply.header('content-language', result.language);
      return result.listing;
    },
  );
}
