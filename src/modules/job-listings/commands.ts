// The commands that write a listing's content: create, update, delete, and a human translation.
// Each runs in one transaction with its job_listing.* event; a change to the texts marks the listing
// for machine translation in that transaction and translates it once committed
// (machine-translation.ts), so the answer and later reads carry the translations without a read
// ever writing.
import { randomUUID } from 'node:crypto';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { entityTag, ifMatchSatisfied, PreconditionFailedError } from '../../shared/etag.ts';
import { normalizeLanguageTag, sameLanguage } from '../../shared/language-tags.ts';
import { getCompany } from '../companies/service.ts';
import { computeExpiresAt } from './lifecycle.ts';
import { markMachineTranslationDue, translateJobListingNow } from './machine-translation.ts';
import { presentJobListing, type LanguageOptions, type PresentedJobListing } from './presenter.ts';
import {
  deleteJobListingRow,
  deleteJobListingRows,
  deleteTranslations,
  insertJobListing,
  insertTranslations,
  pruneTranslations,
  replaceChildren,
  updateJobListingRow,
} from './repo.ts';
import type { CreateJobListingInput, PutTranslationInput, UpdateJobListingInput } from './schemas.ts';
import { childrenFromInput, validateFields, validateLanguage } from './validation.ts';
import { sourceTexts, type JobListingAggregate, type JobListingRow, type TextField } from './view.ts';
import { emit, lockForAction, reload } from './writes.ts';

/** The ETag of a listing as answered: its view and the language of its texts. */
export function listingTag(presented: PresentedJobListing): string {
  return entityTag(presented.listing, presented.language);
}

/** After a committed write: machine translations due since `dueAt`, then the listing as stored. */
async function answer(ctx: ServiceContext, companyId: string, id: string, dueAt: Date, options: LanguageOptions): Promise<PresentedJobListing> {
  await translateJobListingNow(ctx, companyId, id, dueAt);
  return presentJobListing(ctx, await reload(ctx, companyId, id), options);
}

/**
 * What create and update refuse beyond the schema (language, references, currency, salary range),
 * for the fields of a body that passed the schema: the route answers them with the schema's own.
 */
export async function jobListingFieldProblems(
  ctx: ServiceContext,
  input: Partial<CreateJobListingInput> | UpdateJobListingInput,
): Promise<ErrorDetail[]> {
  const details: ErrorDetail[] = [];
  if ('language' in input) validateLanguage(input.language, details);
  await validateFields(ctx.db, input as UpdateJobListingInput, undefined, details);
  return details;
}

export async function createJobListing(
  ctx: ServiceContext,
  companyId: string,
  input: CreateJobListingInput,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  const details: ErrorDetail[] = [];
  let language = validateLanguage(input.language, details);
  const fields = await validateFields(ctx.db, input, undefined, details);
  if (details.length) throw new ValidationError(details);
  language ??= (await getCompany(ctx, companyId)).defaultLanguage;

  const now = ctx.clock.now();
  const id = randomUUID();
  const listing: JobListingRow = {
    id,
    companyId,
    status: 'DRAFT',
    language,
    sectorId: null,
    position: input.position,
    positionType: input.positionType,
    workPlaceType: input.workPlaceType,
    addressStreet: null,
    addressCity: null,
    addressState: null,
    addressCountry: null,
    addressPostalCode: null,
    addressLatitude: null,
    addressLongitude: null,
    isStartDate: null,
    startDate: null,
    jobDescription: null,
    requirementsSummary: null,
    personalQualitiesSummary: null,
    currency: null,
    salaryBase: null,
    isSalaryMax: null,
    salaryMax: null,
    salaryType: null,
    paymentInterval: null,
    salaryDescription: null,
    educationLevel: null,
    fieldOfStudy: null,
    yearsOfExperience: null,
    availableForEveryCountry: null,
    numberOfPositionsOpened: null,
    jobListingEndDate: null,
    referenceNumber: null,
    rejectionReason: null,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    activatedAt: null,
    expiresAt: null,
    closedAt: null,
    machineTranslationDueAt: null,
    ...fields,
  };
  listing.expiresAt = computeExpiresAt(listing.jobListingEndDate, null);
  const children = childrenFromInput(id, input);
  const aggregate: JobListingAggregate = {
    listing,
    skills: children.skills ?? [],
    benefits: children.benefits ?? [],
    hiringSteps: children.hiringSteps ?? [],
    tags: children.tags ?? [],
    requirements: children.requirements ?? [],
  };
  await withTransaction(ctx, async (tx) => {
    await insertJobListing(tx.db, aggregate);
    await markMachineTranslationDue(tx, id, now);
    // The event shows the listing exactly as stored (and as a later GET answers it).
    await emit(tx, 'job_listing.created', await reload(tx, companyId, id), now);
  });
  return answer(ctx, companyId, id, now, options);
}

export async function updateJobListing(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  input: UpdateJobListingInput,
  options: LanguageOptions & { ifMatch?: string | undefined } = {},
): Promise<PresentedJobListing> {
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    const { aggregate } = await lockForAction(tx, companyId, id, 'update');
    if (options.ifMatch !== undefined) {
      // The representation a GET in the same language answers now (row locked: it cannot change
      // until this transaction ends), compared with the tag the caller last read.
      const current = await presentJobListing(tx, aggregate, options);
      if (!ifMatchSatisfied(options.ifMatch, listingTag(current))) throw new PreconditionFailedError();
    }
    const details: ErrorDetail[] = [];
    const fields = await validateFields(tx.db, input, aggregate.listing, details);
    if (details.length) throw new ValidationError(details);
    const endDate = fields.jobListingEndDate !== undefined ? fields.jobListingEndDate : aggregate.listing.jobListingEndDate;
    const listing = await updateJobListingRow(tx.db, id, {
      ...fields,
      expiresAt: computeExpiresAt(endDate, aggregate.listing.activatedAt),
      updatedAt: now,
    });
    await replaceChildren(tx.db, id, childrenFromInput(id, input));
    const updated = await reload(tx, companyId, listing.id);
    // Translations of texts that no longer exist can never apply again.
    await pruneTranslations(tx.db, id, sourceTexts(updated));
    await markMachineTranslationDue(tx, id, now);
    await emit(tx, 'job_listing.updated', updated, now);
  });
  return answer(ctx, companyId, id, now, options);
}

export async function deleteJobListing(ctx: ServiceContext, companyId: string, id: string): Promise<void> {
  await withTransaction(ctx, async (tx) => {
    const { aggregate } = await lockForAction(tx, companyId, id, 'delete');
    await deleteJobListingRow(tx.db, id);
    await emit(tx, 'job_listing.deleted', aggregate, ctx.clock.now());
  });
}

/**
 * Deletes listings for good whatever their status, with their translations and children (the sample
 * data's removal: the company is left as if they never were; the lifecycle's "only a DRAFT is
 * deleted" is for a company's own listings). Their applications must be gone first. No event.
 * Answers how many went.
 */
export async function deleteJobListingsForGood(ctx: ServiceContext, companyId: string, ids: string[]): Promise<number> {
  return withTransaction(ctx, (tx) => deleteJobListingRows(tx.db, companyId, ids));
}

/**
 * Stores a HUMAN translation of the listing's texts into `lang`, replacing any earlier human
 * translation into that language. Texts are matched to the listing's current originals: a
 * translation of a text the listing does not have is refused (422), and when an original is
 * edited later its translations stop applying (and are dropped).
 */
export async function putJobListingTranslation(
  ctx: ServiceContext,
  companyId: string,
  id: string,
  lang: string,
  input: PutTranslationInput,
  options: LanguageOptions = {},
): Promise<PresentedJobListing> {
  const language = normalizeLanguageTag(lang);
  if (!language) throw ValidationError.field('lang', 'must be a BCP 47 language tag such as de or pt-BR');
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    const { aggregate } = await lockForAction(tx, companyId, id, 'update');
    if (sameLanguage(language, aggregate.listing.language)) {
      throw ValidationError.field('lang', `is the listing's source language (${aggregate.listing.language}): change the texts with PATCH`);
    }
    const { listing } = aggregate;
    const details: ErrorDetail[] = [];
    const texts: { field: TextField; source: string; text: string }[] = [];
    const single = (field: TextField, original: string | null, text: string | undefined) => {
      if (text === undefined) return;
      if (original === null) details.push({ field, message: 'the listing has no such text to translate' });
      else texts.push({ field, source: original, text });
    };
    single('position', listing.position, input.position);
    single('jobDescription', listing.jobDescription, input.jobDescription);
    single('requirementsSummary', listing.requirementsSummary, input.requirementsSummary);
    single('personalQualitiesSummary', listing.personalQualitiesSummary, input.personalQualitiesSummary);
    single('salaryDescription', listing.salaryDescription, input.salaryDescription);
    single('fieldOfStudy', listing.fieldOfStudy, input.fieldOfStudy);
    const list = (field: 'benefits' | 'skills', originals: string[], given: string[] | undefined) => {
      if (given === undefined) return;
      if (given.length !== originals.length) {
        details.push({ field, message: `must have ${originals.length} entries, one per ${field === 'benefits' ? 'benefit' : 'skill'}, in order` });
        return;
      }
      given.forEach((text, index) => texts.push({ field, source: originals[index], text }));
    };
    list('benefits', aggregate.benefits.map((b) => b.value), input.benefits);
    list('skills', aggregate.skills.map((s) => s.value), input.skills);
    input.hiringProcessSteps?.forEach((given, index) => {
      const step = aggregate.hiringSteps.find((candidate) => candidate.id === given.id);
      if (!step) {
        details.push({ field: `hiringProcessSteps[${index}].id`, message: 'is not a hiring process step of this listing' });
        return;
      }
      if (given.stepName !== undefined) texts.push({ field: 'hiringProcessSteps.stepName', source: step.stepName, text: given.stepName });
      if (given.description !== undefined) {
        if (step.description === null) {
          details.push({ field: `hiringProcessSteps[${index}].description`, message: 'the step has no description to translate' });
        } else texts.push({ field: 'hiringProcessSteps.description', source: step.description, text: given.description });
      }
    });
    if (details.length) throw new ValidationError(details);

    await deleteTranslations(tx.db, id, language, 'HUMAN');
    // The same original may appear twice (two equal benefits): the first translation given wins.
    await insertTranslations(
      tx.db,
      texts.map((text) => ({
        id: randomUUID(),
        jobListingId: id,
        language,
        field: text.field,
        sourceText: text.source,
        text: text.text,
        translationType: 'HUMAN',
        createdAt: now,
      })),
    );
    // The machine fills, in this language, the texts the human left out.
    const updated = await updateJobListingRow(tx.db, id, { updatedAt: now, ...(ctx.translator ? { machineTranslationDueAt: now } : {}) });
    await emit(tx, 'job_listing.updated', { ...aggregate, listing: updated }, now);
  });
  // Answer in the language just written unless the caller asked for another.
  return answer(ctx, companyId, id, now, { ...options, acceptLanguage: options.acceptLanguage ?? language });
}
