// The boards service's reads and apply, as the careers pages' plain data (model.ts). The only file
// of this module that knows the boards service's shapes: a change there is met here.
import {
  applyToBoardJob,
  findBoardBySlug,
  getBoardJob,
  issueApplyFormToken,
  listBoardJobs,
  type ActiveJobListingSummary,
  type BoardJob,
  type BoardView,
} from '../boards/service.ts';
import type { PositionType, WorkPlaceType } from '../reference-data/enums.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { DomainError } from '../../shared/errors.ts';
import type { CareersAddress, CareersBoard, CareersJob, CareersJobSummary } from './model.ts';
import type { ApplicationFields } from './apply.ts';

/** One page of the list. */
export const LIST_PAGE_SIZE = 20;
/** The feeds and the sitemap list at most this many (newest first); sitemaps.org allows 50,000. */
export const FEED_MAX = 1_000;

const isCode = (error: unknown, code: string): boolean => error instanceof DomainError && (error.code as string) === code;

export interface LanguageAsked {
  lang?: string | undefined;
  acceptLanguage?: string | undefined;
}

function toBoard(board: BoardView): CareersBoard {
  return {
    slug: board.slug,
    name: board.name,
    ...(board.intro ? { intro: board.intro.text } : {}),
    ...(board.logoUrl ? { logoUrl: board.logoUrl } : {}),
    ...(board.accentColor ? { accentColor: board.accentColor } : {}),
    ...(board.privacyPolicyUrl ? { privacyPolicyUrl: board.privacyPolicyUrl } : {}),
    ...(board.captcha ? { captcha: board.captcha } : {}),
  };
}

/** The first tag of a Content-Language value ("de, en" when a page mixes). */
const firstLanguage = (value: string): string => value.split(',')[0].trim();

/** The board of a slug, or undefined when there is none to show (unknown slug, board off). */
export async function findCareersBoard(ctx: ServiceContext, slug: string, asked: LanguageAsked): Promise<CareersBoard | undefined> {
  try {
    return toBoard(await findBoardBySlug(ctx, slug, asked));
  } catch (error) {
    if (isCode(error, 'NOT_FOUND')) return undefined;
    throw error;
  }
}

function address(location: { city?: string | null; state?: string | null; country?: string | null; street?: string | null; postalCode?: string | null } | null): CareersAddress | undefined {
  if (!location) return undefined;
  const result: CareersAddress = {};
  if (location.street) result.street = location.street;
  if (location.city) result.city = location.city;
  if (location.state) result.state = location.state;
  if (location.postalCode) result.postalCode = location.postalCode;
  if (location.country) result.country = location.country;
  return Object.keys(result).length > 0 ? result : undefined;
}

function toSummary(item: ActiveJobListingSummary, language: string): CareersJobSummary {
  const place = address(item.location);
  return {
    id: item.id,
    title: item.position.value,
    positionType: item.positionType as PositionType,
    workPlaceType: item.workPlaceType as WorkPlaceType,
    ...(place ? { address: place } : {}),
    publishedAt: item.publishedAt ?? item.createdAt,
    updatedAt: item.updatedAt,
    language: item.position.translated ? language : item.sourceLanguage,
  };
}

export interface CareersListQuery {
  /** 1 for the first page. */
  page: number;
  q?: string | undefined;
  workPlaceType?: string | undefined;
  positionType?: string | undefined;
  country?: string | undefined;
}

export interface CareersList {
  board: CareersBoard;
  jobs: CareersJobSummary[];
  total: number;
  totalPages: number;
  /** The language the titles came in. */
  language: string;
}

/**
 * A page of the board's open listings; undefined for an unknown slug or a board turned off. A
 * filter value the board refuses (an unknown work place type typed into the address bar) shows
 * no listing rather than an error page.
 */
export async function listCareersJobs(ctx: ServiceContext, slug: string, query: CareersListQuery, asked: LanguageAsked): Promise<CareersList | undefined> {
  try {
    const { board, page, language } = await listBoardJobs(
      ctx,
      slug,
      { page: query.page - 1, size: LIST_PAGE_SIZE, q: query.q, workPlaceType: query.workPlaceType, positionType: query.positionType, country: query.country },
      asked,
    );
    const answered = firstLanguage(language);
    return {
      board: toBoard(board),
      jobs: page.data.map((item) => toSummary(item, answered)),
      total: page.pagination.totalElements,
      totalPages: page.pagination.totalPages,
      language: answered,
    };
  } catch (error) {
    if (isCode(error, 'NOT_FOUND')) return undefined;
    if (isCode(error, 'VALIDATION_ERROR')) {
      const board = await findCareersBoard(ctx, slug, asked);
      return board ? { board, jobs: [], total: 0, totalPages: 0, language: 'en' } : undefined;
    }
    throw error;
  }
}

/** The newest open listings (at most FEED_MAX), for the sitemap and the feeds. */
export async function listOpenJobs(ctx: ServiceContext, slug: string, asked: LanguageAsked): Promise<{ board: CareersBoard; jobs: CareersJobSummary[]; language: string } | undefined> {
  try {
    const { board, page, language } = await listBoardJobs(ctx, slug, { page: 0, size: FEED_MAX }, asked);
    const answered = firstLanguage(language);
    return { board: toBoard(board), jobs: page.data.map((item) => toSummary(item, answered)), language: answered };
  } catch (error) {
    if (isCode(error, 'NOT_FOUND')) return undefined;
    throw error;
  }
}

const nonEmpty = (text: string | null | undefined): string | undefined => (text && text.trim() !== '' ? text : undefined);

function toJob(job: BoardJob, language: string): CareersJob {
  const place = address(job.address ?? null);
  const salaryShown = job.currency !== null && job.salaryBase !== null && job.salaryBase !== undefined;
  const validThrough = job.jobListingEndDate ?? job.expiresAt ?? undefined;
  return {
    id: job.id,
    title: job.position.value,
    positionType: job.positionType,
    workPlaceType: job.workPlaceType,
    ...(place ? { address: place } : {}),
    publishedAt: job.publishedAt ?? job.createdAt,
    updatedAt: job.updatedAt,
    language,
    description: nonEmpty(job.jobDescription?.value) ?? job.position.value,
    ...(nonEmpty(job.requirementsSummary?.value) ? { requirementsSummary: job.requirementsSummary!.value } : {}),
    ...(nonEmpty(job.personalQualitiesSummary?.value) ? { personalQualitiesSummary: job.personalQualitiesSummary!.value } : {}),
    skills: (job.skills ?? []).map((skill) => skill.value.value),
    benefits: (job.benefits ?? []).map((benefit) => benefit.value),
    ...(salaryShown
      ? {
          salary: {
            currency: job.currency!,
            min: Number(job.salaryBase),
            ...(job.salaryMax !== null && job.salaryMax !== undefined ? { max: Number(job.salaryMax) } : {}),
            ...(job.paymentInterval ? { interval: job.paymentInterval } : {}),
            ...(nonEmpty(job.salaryDescription?.value) ? { description: job.salaryDescription!.value } : {}),
          },
        }
      : {}),
    ...(validThrough ? { validThrough } : {}),
    ...(job.availableForEveryCountry ? { availableForEveryCountry: true } : {}),
    ...(job.yearsOfExperience ? { yearsOfExperience: job.yearsOfExperience } : {}),
    ...(job.isStartDate && job.startDate ? { startDate: job.startDate } : {}),
  };
}

export type CareersJobLookup =
  | { state: 'open'; board: CareersBoard; job: CareersJob; language: string }
  | { state: 'closed' }
  | { state: 'missing' };

/** One listing in the language asked for: open, closed (410) or not there to show (404). */
export async function getCareersJob(ctx: ServiceContext, slug: string, id: string, asked: LanguageAsked): Promise<CareersJobLookup> {
  try {
    const found = await getBoardJob(ctx, slug, id, asked);
    const language = firstLanguage(found.language);
    return { state: 'open', board: toBoard(found.board), job: toJob(found.job, language), language };
  } catch (error) {
    if (isCode(error, 'GONE')) return { state: 'closed' };
    // A malformed id reads as an unknown one: a 404 page, not an error.
    if (isCode(error, 'NOT_FOUND') || isCode(error, 'VALIDATION_ERROR')) return { state: 'missing' };
    throw error;
  }
}

/**
 * The form's start token (the boards service checks it dates from a person's pace), for a listing
 * just read for the page: no second read.
 */
export function startApplication(ctx: ServiceContext, slug: string, id: string): string {
  return issueApplyFormToken(ctx, slug, id).formToken;
}

export async function submitApplication(
  ctx: ServiceContext,
  input: {
    slug: string;
    jobId: string;
    fields: ApplicationFields;
    resume: { fileName: string; content: AsyncIterable<Uint8Array> } | undefined;
    remoteIp: string;
  },
  limits: { maxFileBytes: number; minSecondsToSubmit: number },
): Promise<{ applicationId: string; position: string }> {
  const result = await applyToBoardJob(ctx, { slug: input.slug, jobId: input.jobId, fields: input.fields, resume: input.resume, remoteIp: input.remoteIp }, limits);
  return { applicationId: result.applicationId, position: result.position };
}
