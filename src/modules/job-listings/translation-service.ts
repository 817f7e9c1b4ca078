// Which language a listing is answered in, and where its translations come from.
//
// Selection (per listing): the Accept-Language ranges are tried in order of preference, each
// followed by its shorter prefixes (de-CH, then de). A range is served when it is the listing's
// source language (or `*`), when the listing has stored translations in it (a range `de` also
// matches a stored `de-AT`), or when a machine translator is configured and can translate into it.
// Nothing acceptable: the original. The chosen language is answered in Content-Language; a text
// with no translation in it keeps its original value with translated: false.
//
// AI translations are made on request, only for texts that have no translation in the chosen
// language yet, and stored (job_listing_translations, type AI) so each text is translated once.
// A HUMAN translation of the same text always wins, whenever it was made. When the translator
// fails, the answer falls back to stored translations and originals; a read never fails because
// of the translator.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { getCompany } from '../companies/service.ts';
import { recordEvent } from '../outbox/record-event.ts';
import type { Translator } from '../translation/translator.ts';
import { lookupCandidates, normalizeLanguageTag, sameLanguage } from './languages.ts';
import { transition } from './lifecycle.ts';
import type { JobListingStatus } from '../reference-data/enums.ts';
import {
  deleteTranslations,
  findJobListingAggregate,
  findTranslations,
  insertTranslations,
  translationLanguages,
  updateJobListingRow,
  type ListingSummaryRow,
} from './repo.ts';
import type { JobListingListItemView, JobListingView, PutTranslationInput } from './schemas.ts';
import {
  toJobListingListItem,
  toJobListingView,
  TranslationLookup,
  untranslated,
  type JobListingAggregate,
  type SourceText,
  type TextField,
  type TranslationRow,
} from './view.ts';

interface LanguageOptions {
  acceptLanguage?: string | undefined;
  translator?: Translator | undefined;
}

/** Whether a range (from Accept-Language) covers an available tag: de covers de and de-AT. */
function covers(range: string, available: string): boolean {
  return sameLanguage(range, available) || available.toLowerCase().startsWith(`${range.toLowerCase()}-`);
}

/** Machine-translates `texts` into `language` and stores the results; false when it failed. */
async function translateAndStore(
  db: Db,
  translator: Translator,
  listingId: string,
  from: string,
  language: string,
  texts: SourceText[],
  now: Date,
  lookup: TranslationLookup,
): Promise<boolean> {
  if (texts.length === 0) return true;
  let results: string[];
  try {
    results = await translator.translate(
      texts.map((text) => text.source),
      from,
      language,
    );
  } catch {
    return false;
  }
  const rows: TranslationRow[] = texts.map((text, index) => ({
    id: randomUUID(),
    jobListingId: listingId,
    language,
    field: text.field,
    sourceText: text.source,
    text: results[index],
    translationType: 'AI',
    createdAt: now,
  }));
  await insertTranslations(db, rows);
  for (const row of rows) lookup.add(row.field, row.sourceText, { text: row.text, type: 'AI' });
  return true;
}

/** The full listing in the best language for the caller, and that language. */
export async function presentJobListing(
  ctx: ServiceContext,
  aggregate: JobListingAggregate,
  options: LanguageOptions,
): Promise<{ listing: JobListingView; language: string }> {
  const source = aggregate.listing.language;
  const candidates = lookupCandidates(options.acceptLanguage);
  if (candidates.length === 0) return { listing: toJobListingView(aggregate), language: source };
  const stored = await translationLanguages(ctx.db, aggregate.listing.id);
  for (const candidate of candidates) {
    if (candidate === '*' || covers(candidate, source)) return { listing: toJobListingView(aggregate), language: source };
    const match = stored.find((language) => covers(candidate, language));
    if (match) {
      const lookup = new TranslationLookup(await findTranslations(ctx.db, [aggregate.listing.id], { languages: [match] }));
      if (options.translator) {
        // Best effort: texts still missing in this language get a machine translation.
        await translateAndStore(ctx.db, options.translator, aggregate.listing.id, source, match, untranslated(aggregate, lookup), ctx.clock.now(), lookup);
      }
      return { listing: toJobListingView(aggregate, lookup), language: match };
    }
    if (options.translator) {
      const lookup = new TranslationLookup();
      const ok = await translateAndStore(
        ctx.db,
        options.translator,
        aggregate.listing.id,
        source,
        candidate,
        untranslated(aggregate, lookup),
        ctx.clock.now(),
        lookup,
      );
      if (ok) return { listing: toJobListingView(aggregate, lookup), language: candidate };
    }
  }
  return { listing: toJobListingView(aggregate), language: source };
}

/**
 * List items: each position in the best language for that listing (the same selection as for a
 * single listing, on the position alone). Content-Language lists the languages the page's values
 * are in, most wanted first; an empty page answers the most wanted language, else the company's.
 */
export async function presentJobListingItems(
  ctx: ServiceContext,
  companyId: string,
  rows: ListingSummaryRow[],
  options: LanguageOptions,
): Promise<{ items: JobListingListItemView[]; language: string }> {
  // Parsed once for the whole page: per row (and per sort comparison) it once cost seconds.
  const ordered = lookupCandidates(options.acceptLanguage);
  const candidates = ordered.filter((tag) => tag !== '*');
  const languageOf = new Map<string, string>(); // listing id -> language of its value
  const lookups = new Map<string, TranslationLookup>(); // listing id -> its translation
  if (candidates.length > 0 && rows.length > 0) {
    const stored = await findTranslations(
      ctx.db,
      rows.map((row) => row.id),
      { field: 'position' },
    );
    // Machine translations to make, by "from|to": one batched call per pair.
    const pending = new Map<string, { from: string; to: string; rows: ListingSummaryRow[] }>();
    for (const row of rows) {
      const translations = stored.filter((t) => t.jobListingId === row.id && t.field === 'position' && t.sourceText === row.position);
      for (const candidate of ordered) {
        if (candidate === '*' || covers(candidate, row.language)) break;
        const found = translations.filter((t) => covers(candidate, t.language));
        if (found.length > 0) {
          const lookup = new TranslationLookup(found.filter((t) => t.language === found[0].language));
          lookups.set(row.id, lookup);
          languageOf.set(row.id, found[0].language);
          break;
        }
        if (options.translator) {
          const key = `${row.language}|${candidate}`;
          if (!pending.has(key)) pending.set(key, { from: row.language, to: candidate, rows: [] });
          pending.get(key)!.rows.push(row);
          break;
        }
      }
    }
    for (const { from, to, rows: batch } of pending.values()) {
      const positions = [...new Set(batch.map((row) => row.position))];
      let results: string[];
      try {
        results = await options.translator!.translate(positions, from, to);
      } catch {
        continue; // these items keep their originals
      }
      const now = ctx.clock.now();
      const translated = new Map(positions.map((position, index) => [position, results[index]]));
      const toStore: TranslationRow[] = batch.map((row) => ({
        id: randomUUID(),
        jobListingId: row.id,
        language: to,
        field: 'position',
        sourceText: row.position,
        text: translated.get(row.position)!,
        translationType: 'AI',
        createdAt: now,
      }));
      await insertTranslations(ctx.db, toStore);
      for (const stored of toStore) {
        lookups.set(stored.jobListingId, new TranslationLookup([stored]));
        languageOf.set(stored.jobListingId, to);
      }
    }
  }
  const items = rows.map((row) => toJobListingListItem(row, lookups.get(row.id)));
  const used = [...new Set(rows.map((row) => languageOf.get(row.id) ?? row.language))];
  const rankOf = new Map(
    used.map((tag) => {
      const index = ordered.findIndex((candidate) => candidate === '*' || covers(candidate, tag));
      return [tag, index === -1 ? Number.MAX_SAFE_INTEGER : index];
    }),
  );
  used.sort((a, b) => rankOf.get(a)! - rankOf.get(b)!);
  if (used.length > 0) return { items, language: used.join(', ') };
  return { items, language: candidates[0] ?? (await getCompany(ctx, companyId)).defaultLanguage };
}

// --- human translations -------------------------------------------------------------------------

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
): Promise<{ listing: JobListingView; language: string }> {
  const language = normalizeLanguageTag(lang);
  if (!language) throw ValidationError.field('lang', 'must be a BCP 47 language tag such as de or pt-BR');
  await ctx.db.transaction(async (tx) => {
    const aggregate = await findJobListingAggregate(tx, companyId, id, { lock: 'update' });
    if (!aggregate) throw new NotFoundError('Job listing');
    const status = aggregate.listing.status as JobListingStatus;
    const move = transition(status, 'update', { requiresReview: false, everPublished: aggregate.listing.publishedAt !== null });
    if (!move.allowed) {
      throw new ConflictError(`${move.reason} (archived listings are read-only)`, [{ field: 'status', message: `is ${status}` }]);
    }
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

    const now = ctx.clock.now();
    await deleteTranslations(tx, id, language, 'HUMAN');
    // The same original may appear twice (two equal benefits): the first translation given wins.
    await insertTranslations(
      tx,
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
    const updated = await updateJobListingRow(tx, id, { updatedAt: now });
    await recordEvent(tx, {
      companyId,
      type: 'job_listing.updated',
      data: toJobListingView({ ...aggregate, listing: updated }),
      occurredAt: now,
    });
  });
  const aggregate = await findJobListingAggregate(ctx.db, companyId, id);
  if (!aggregate) throw new NotFoundError('Job listing');
  // Answer in the language just written unless the caller asked for another.
  return presentJobListing(ctx, aggregate, { ...options, acceptLanguage: options.acceptLanguage ?? language });
}
