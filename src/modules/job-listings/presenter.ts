// The read side: which language a listing is answered in, and the listing in it, from what is
// stored. A read never writes and never calls the translator (docs/decisions.md, "Translated
// text"): machine translations are made on the write path (machine-translation.ts).
//
// Selection: the Accept-Language ranges are tried in order of preference, each followed by its
// shorter prefixes (de-CH, then de). A range is served when it is the listing's source language
// (or `*`), or when the listing has a stored translation in it (a range `de` also matches a stored
// `de-AT`). Nothing acceptable: the original. The chosen language is answered in Content-Language;
// a text with no translation in it keeps its original value with translated: false. A HUMAN
// translation of a text wins over an AI one.
import type { ServiceContext } from '../../shared/context.ts';
import { lookupCandidates, sameLanguage } from '../../shared/language-tags.ts';
import { getCompany } from '../companies/service.ts';
import { findTranslations, translationLanguages, type ListingSummaryRow } from './repo.ts';
import type { JobListingListItemView, JobListingView } from './schemas.ts';
import { toJobListingListItem, toJobListingView, TranslationLookup, type JobListingAggregate } from './view.ts';

/** A listing as answered to a caller, and the language of its texts (for Content-Language). */
export interface PresentedJobListing {
  listing: JobListingView;
  language: string;
}

export interface LanguageOptions {
  /** The caller's Accept-Language header. */
  acceptLanguage?: string | undefined;
}

/** Whether a range (from Accept-Language) covers an available tag: de covers de and de-AT. */
function covers(range: string, available: string): boolean {
  return sameLanguage(range, available) || available.toLowerCase().startsWith(`${range.toLowerCase()}-`);
}

/** Whether a range serves a text already in this language: `*`, or a range that covers it. */
function serves(range: string, language: string): boolean {
  return range === '*' || covers(range, language);
}

/**
 * The one language choice, for a single listing and for each item of a page: the first range (in
 * the caller's order) that is the source language, `*`, or covers a language in `stored`. Answers
 * the stored tag to read translations in, or undefined for the original.
 */
export function chooseLanguage(ranges: readonly string[], source: string, stored: readonly string[]): string | undefined {
  for (const range of ranges) {
    if (serves(range, source)) return undefined;
    const match = stored.find((language) => covers(range, language));
    if (match) return match;
  }
  return undefined;
}

/** The full listing in the best stored language for the caller, and that language. */
export async function presentJobListing(
  ctx: ServiceContext,
  aggregate: JobListingAggregate,
  options: LanguageOptions,
): Promise<PresentedJobListing> {
  const source = aggregate.listing.language;
  const ranges = lookupCandidates(options.acceptLanguage);
  // A first range that the original serves (`*`, which fetch clients send by default, or the
  // source language) chooses it whatever is stored: no need to ask which languages are.
  if (ranges.length === 0 || serves(ranges[0], source)) return { listing: toJobListingView(aggregate), language: source };
  const chosen = chooseLanguage(ranges, source, await translationLanguages(ctx.db, aggregate.listing.id));
  if (!chosen) return { listing: toJobListingView(aggregate), language: source };
  const lookup = new TranslationLookup(await findTranslations(ctx.db, [aggregate.listing.id], { languages: [chosen] }));
  return { listing: toJobListingView(aggregate, lookup), language: chosen };
}

/**
 * List items: each position in the best language for that listing (the same choice as for a
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
  const ranges = lookupCandidates(options.acceptLanguage);
  const languageOf = new Map<string, string>(); // listing id -> language of its value
  const lookups = new Map<string, TranslationLookup>(); // listing id -> its translation
  if (ranges.some((range) => range !== '*') && rows.length > 0) {
    const stored = await findTranslations(
      ctx.db,
      rows.map((row) => row.id),
      { field: 'position' },
    );
    for (const row of rows) {
      // Only translations of the position as it reads now apply.
      const translations = stored.filter((t) => t.jobListingId === row.id && t.sourceText === row.position);
      const chosen = chooseLanguage(ranges, row.language, [...new Set(translations.map((t) => t.language))]);
      if (!chosen) continue;
      lookups.set(row.id, new TranslationLookup(translations.filter((t) => t.language === chosen)));
      languageOf.set(row.id, chosen);
    }
  }
  const items = rows.map((row) => toJobListingListItem(row, lookups.get(row.id)));
  const used = [...new Set(rows.map((row) => languageOf.get(row.id) ?? row.language))];
  const rankOf = new Map(
    used.map((tag) => {
      const index = ranges.findIndex((range) => serves(range, tag));
      return [tag, index === -1 ? Number.MAX_SAFE_INTEGER : index];
    }),
  );
  used.sort((a, b) => rankOf.get(a)! - rankOf.get(b)!);
  if (used.length > 0) return { items, language: used.join(', ') };
  const wanted = ranges.find((range) => range !== '*');
  return { items, language: wanted ?? (await getCompany(ctx, companyId)).defaultLanguage };
}
