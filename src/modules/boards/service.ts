// The public job board (README.md): a company's board, its ACTIVE listings and applications to
// them, for callers with no key. No HTTP here: the board API (routes.ts) and the careers pages
// (careers module) call these same functions. Settings come from the companies module, listings
// from the job-listings module, applications go through the applications module.
import { submitCandidateApplication } from '../applications/service.ts';
import { findEnabledBoardBySlug, openBoardLogo as openLogo, type EnabledBoard } from '../companies/service.ts';
import { introFor } from '../companies/board-rules.ts';
import {
  getJobListing,
  listActiveJobListings,
  type ActiveJobListingSummary,
  type JobListingView,
} from '../job-listings/service.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { ConflictError, DomainError, GoneError, NotFoundError, ValidationError } from '../../shared/errors.ts';
import { lookupCandidates } from '../../shared/language-tags.ts';
import type { Page, PageRequest } from '../../shared/pagination.ts';
import { checkApplicationForm, checkFormToken, issueFormToken, type ApplicationFormFields } from './form.ts';
import type { CaptchaVerifier } from './captcha.ts';

declare module '../../shared/context.ts' {
  interface ServiceContext {
    /** Checks the CAPTCHA answer of a board application (CAPTCHA_SECRET set); none: no CAPTCHA. */
    captcha?: CaptchaVerifier | undefined;
  }
}

export type { ActiveJobListingSummary } from '../job-listings/service.ts';

/** What a board shows of its company: nothing else of it leaks. */
export interface BoardView {
  slug: string;
  /** The board's public name (else the company's name). */
  name: string;
  /** The intro text in the best language for the caller (null: none written). */
  intro: { language: string; text: string } | null;
  /** Every intro text by language (BCP 47 tag). */
  intros: Record<string, string>;
  /** The company's default language (BCP 47): the pages' language when the caller names none. */
  defaultLanguage: string;
  /** Path of the logo on this server (null: none). */
  logoUrl: string | null;
  /** #rrggbb, or null. */
  accentColor: string | null;
  privacyPolicyUrl: string | null;
  /** Whether listings show their salary. */
  showSalary: boolean;
  /** The CAPTCHA the apply form must carry (null: none asked). */
  captcha: { provider: 'turnstile' | 'hcaptcha'; siteKey: string } | null;
  /** When the settings last changed (ISO 8601). */
  updatedAt: string;
}

/** Languages, as the API takes them: `?lang=` first, else the Accept-Language header. */
export interface BoardLanguageOptions {
  lang?: string | undefined;
  acceptLanguage?: string | undefined;
}

const languageHeader = (options: BoardLanguageOptions): string | undefined => options.lang ?? options.acceptLanguage;

function toBoardView(ctx: ServiceContext, board: EnabledBoard, options: BoardLanguageOptions): BoardView {
  return {
    slug: board.slug,
    name: board.name,
    intro: introFor(board.intro, lookupCandidates(languageHeader(options)), board.defaultLanguage),
    intros: board.intro,
    defaultLanguage: board.defaultLanguage,
    logoUrl: board.logoUrl,
    accentColor: board.accentColor,
    privacyPolicyUrl: board.privacyPolicyUrl,
    showSalary: board.showSalary,
    captcha: ctx.captcha ? { provider: ctx.captcha.provider, siteKey: ctx.captcha.siteKey } : null,
    updatedAt: board.updatedAt.toISOString(),
  };
}

async function enabledBoard(ctx: ServiceContext, slug: string): Promise<EnabledBoard> {
  const board = await findEnabledBoardBySlug(ctx, slug);
  // An unknown slug and a board that is off read alike.
  if (!board) throw new NotFoundError('Board');
  return board;
}

/** The board of this slug. NotFoundError (404): unknown slug, or the board is off. */
export async function findBoardBySlug(ctx: ServiceContext, slug: string, options: BoardLanguageOptions = {}): Promise<BoardView> {
  return toBoardView(ctx, await enabledBoard(ctx, slug), options);
}

export interface BoardJobsQuery extends PageRequest {
  workPlaceType?: string | undefined;
  positionType?: string | undefined;
  /** ISO 3166-1 alpha-2 code of the listing's address. */
  country?: string | undefined;
  sectorId?: string | undefined;
  /** Text in the position (as written or in a stored translation), case-insensitive. */
  q?: string | undefined;
}

export interface BoardJobsResult {
  board: BoardView;
  page: Page<ActiveJobListingSummary>;
  /** The languages of the page's positions, most wanted first (Content-Language). */
  language: string;
}

/** The board's ACTIVE listings, newest first, paginated and filtered. NotFoundError: unknown slug or board off. */
export async function listBoardJobs(
  ctx: ServiceContext,
  slug: string,
  query: BoardJobsQuery,
  options: BoardLanguageOptions = {},
): Promise<BoardJobsResult> {
  const board = await enabledBoard(ctx, slug);
  const { page, language } = await listActiveJobListings(ctx, board.companyId, query, { acceptLanguage: languageHeader(options) });
  return { board: toBoardView(ctx, board, options), page, language };
}

/** Fields of a listing a board never shows. */
const INTERNAL_FIELDS = ['companyId', 'referenceNumber', 'rejectionReason', 'jobListingTags', 'status', 'closedAt'] as const;
const SALARY_FIELDS = ['currency', 'salaryBase', 'isSalaryMax', 'salaryMax', 'salaryType', 'paymentInterval', 'salaryDescription'] as const;

/** A listing as its board shows it: no internal fields; the salary fields null unless the company shows salaries. */
export type BoardJob = Omit<JobListingView, (typeof INTERNAL_FIELDS)[number]>;

export interface BoardJobResult {
  board: BoardView;
  job: BoardJob;
  /** The language of the listing's texts (Content-Language). */
  language: string;
}

function toBoardJob(listing: JobListingView, showSalary: boolean): BoardJob {
  const job: Record<string, unknown> = { ...listing };
  for (const field of INTERNAL_FIELDS) delete job[field];
  if (!showSalary) for (const field of SALARY_FIELDS) job[field] = null;
  return job as BoardJob;
}

/**
 * One listing of the board in the caller's language (the API's translation rules). NotFoundError:
 * unknown slug, board off, another company's listing, or one never published (DRAFT, UNDER_REVIEW);
 * GoneError (410): a listing that was published and is no longer open (CLOSED, ARCHIVED).
 */
export async function getBoardJob(ctx: ServiceContext, slug: string, id: string, options: BoardLanguageOptions = {}): Promise<BoardJobResult> {
  const board = await enabledBoard(ctx, slug);
  const { listing, language } = await getJobListing(ctx, board.companyId, id, languageHeader(options));
  assertOpen(listing);
  return { board: toBoardView(ctx, board, options), job: toBoardJob(listing, board.showSalary), language };
}

function assertOpen(listing: Pick<JobListingView, 'status' | 'publishedAt'>): void {
  if (listing.status === 'ACTIVE') return;
  if ((listing.status === 'CLOSED' || listing.status === 'ARCHIVED') && listing.publishedAt !== null) {
    throw new GoneError('This job listing is no longer open');
  }
  throw new NotFoundError('Job listing');
}

/** The logo's bytes of an enabled board, or undefined (unknown slug, board off, no logo). */
export async function openBoardLogo(ctx: ServiceContext, slug: string) {
  return openLogo(ctx, slug);
}

// --- applying ---------------------------------------------------------------------------------------

/**
 * A token the apply form carries from when it was shown: applying checks it was made for this
 * board and listing, by this server, at least APPLY_MIN_SECONDS before (a person takes that long;
 * a script does not) and at most a day before. Stateless: signed with the server's keys.
 */
export async function startBoardApplication(
  ctx: ServiceContext,
  slug: string,
  id: string,
): Promise<{ formToken: string; notBefore: string; expiresAt: string }> {
  await getBoardJob(ctx, slug, id);
  return issueApplyFormToken(ctx, slug, id);
}

export type { ApplicationFormFields } from './form.ts';

export interface BoardApplicationInput {
  slug: string;
  jobId: string;
  /** The form's text fields as sent (strings; checked here). */
  fields: ApplicationFormFields;
  /** The résumé, streamed: taken in by the documents module's checks (413, 415, 422). */
  resume?: { fileName: string; content: AsyncIterable<Uint8Array> } | undefined;
  /** The applicant's address (the CAPTCHA provider is told it). */
  remoteIp?: string | undefined;
}

export interface BoardApplicationResult {
  applicationId: string;
  candidateId: string;
  /** The listing's position in the language it was shown in (for the confirmation). */
  position: string;
}

/**
 * Applies to an ACTIVE listing of an enabled board, as the candidate: checks the board and the
 * listing (404, 410), the protections (a filled honeypot, a missing, foreign or too young form
 * token, a failed CAPTCHA: 422 before anything is stored), the fields (422: names, e-mail, phone,
 * links, cover letter; the privacy consent is required), then stores the résumé and creates or
 * finds the candidate by e-mail and the application (source CAREERS_PAGE, application.created).
 * A second application of the same e-mail to the listing: ConflictError (409). The per-address
 * rate limit is the caller's (an HTTP concern: src/http/rate-limit.ts, perAddressLimit).
 */
export async function applyToBoardJob(
  ctx: ServiceContext,
  input: BoardApplicationInput,
  limits: { maxFileBytes: number; minSecondsToSubmit: number },
): Promise<BoardApplicationResult> {
  const { job } = await getBoardJob(ctx, input.slug, input.jobId);
  const form = checkApplicationForm(input.fields);
  if (form.honeypotFilled) throw refused();
  checkFormToken(ctx, input.fields.formToken, input.slug, input.jobId, limits.minSecondsToSubmit);
  if (!form.ok) throw new ValidationError(form.details);
  if (ctx.captcha) {
    const answer = input.fields.captchaToken?.trim();
    if (!answer) throw ValidationError.field('captchaToken', 'is required: complete the CAPTCHA');
    const verdict = await ctx.captcha.verify(answer, input.remoteIp);
    if (verdict !== 'passed') {
      throw ValidationError.field('captchaToken', verdict === 'failed' ? 'was not accepted: complete the CAPTCHA again' : 'could not be checked now: try again shortly');
    }
  }
  const board = await enabledBoard(ctx, input.slug);
  try {
    const result = await submitCandidateApplication(
      ctx,
      {
        companyId: board.companyId,
        jobListingId: input.jobId,
        source: 'CAREERS_PAGE',
        candidate: form.value.candidate,
        coverLetter: form.value.coverLetter,
        resume: input.resume,
      },
      { maxFileBytes: limits.maxFileBytes },
    );
    return { applicationId: result.applicationId, candidateId: result.candidateId, position: job.position.value };
  } catch (error) {
    // The API's 409, without the existing application's id (no internal ids leave the board).
    if (error instanceof DomainError && error.code === 'CONFLICT' && error.details?.[0]?.field === 'existingApplicationId') {
      throw new ConflictError('You have already applied to this job with this e-mail address', [{ field: 'email', message: 'has already applied to this job' }]);
    }
    // A listing closed between the check and the insert.
    if (error instanceof DomainError && error.code === 'CONFLICT') throw new GoneError('This job listing is no longer open');
    throw error;
  }
}

function refused(): ValidationError {
  return new ValidationError([], 'The application could not be accepted');
}

/**
 * A form token for a listing the caller has already read (getBoardJob): what a page that renders
 * the apply form embeds in it, without reading the listing again.
 */
export function issueApplyFormToken(ctx: ServiceContext, slug: string, jobId: string): { formToken: string; notBefore: string; expiresAt: string } {
  return issueFormToken(ctx, slug, jobId);
}
