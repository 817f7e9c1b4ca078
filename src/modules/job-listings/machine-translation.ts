// The write side of AI translations (docs/decisions.md, "Translated text"). A command that changes
// a listing's texts marks the listing due (machine_translation_due_at) in its own transaction; after
// it commits, the request translates the listing at once, and the scheduled sweep retries whatever
// failed. Reads only serve what is stored (presenter.ts).
//
// Target languages: TRANSLATOR_LANGUAGES plus every language the listing has a HUMAN translation in
// (the machine fills the texts the human left out), never the source language. Only texts with no
// translation yet in a language are sent, in one call per language; a HUMAN translation of the same
// text always wins when read, whenever it was made.
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../shared/context.ts';
import { sameLanguage } from '../../shared/language-tags.ts';
import {
  findJobListingAggregate,
  findMachineTranslationsDue,
  findTranslations,
  insertTranslations,
  settleMachineTranslation,
  translationLanguages,
  updateJobListingRow,
} from './repo.ts';
import { TranslationLookup, untranslated, type TranslationRow } from './view.ts';

/** A failed translation is tried again this long after (the translator down, a language it lacks). */
const MACHINE_TRANSLATION_RETRY_MS = 10 * 60_000;
const SWEEP_BATCH = 20;

/** Inside a command's transaction (`ctx`'s): the listing's texts changed, machine translation is due now. */
export async function markMachineTranslationDue(ctx: ServiceContext, listingId: string, now: Date): Promise<void> {
  if (!ctx.translator) return;
  await updateJobListingRow(ctx.db, listingId, { machineTranslationDueAt: now });
}

/**
 * Translates the listing's untranslated texts into each target language and stores them (type AI).
 * True when every language succeeded (or there was nothing to do); a failure leaves the rest for a
 * later try and never throws for the translator's sake.
 */
async function translateListing(ctx: ServiceContext, companyId: string, listingId: string): Promise<boolean> {
  const translator = ctx.translator;
  if (!translator) return true;
  const aggregate = await findJobListingAggregate(ctx.db, companyId, listingId);
  if (!aggregate) return true; // deleted meanwhile: nothing left to translate
  const source = aggregate.listing.language;
  const targets = [...(ctx.translatorLanguages ?? []), ...(await translationLanguages(ctx.db, listingId))].filter(
    (language, index, all) => !sameLanguage(language, source) && all.findIndex((other) => sameLanguage(other, language)) === index,
  );
  let complete = true;
  for (const language of targets) {
    const lookup = new TranslationLookup(await findTranslations(ctx.db, [listingId], { languages: [language] }));
    const texts = untranslated(aggregate, lookup);
    if (texts.length === 0) continue;
    let results: string[];
    try {
      results = await translator.translate(
        texts.map((text) => text.source),
        source,
        language,
      );
    } catch {
      complete = false;
      continue;
    }
    const now = ctx.clock.now();
    // A text edited meanwhile makes these rows stale; they are pruned by that edit or never match.
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
    await insertTranslations(ctx.db, rows);
  }
  return complete;
}

/** Translates one due listing and moves its mark: cleared when complete, else a retry later. */
async function translateAndSettle(ctx: ServiceContext, companyId: string, listingId: string, dueAt: Date): Promise<boolean> {
  const complete = await translateListing(ctx, companyId, listingId);
  const next = complete ? null : new Date(ctx.clock.now().getTime() + MACHINE_TRANSLATION_RETRY_MS);
  await settleMachineTranslation(ctx.db, listingId, dueAt, next);
  return complete;
}

/** The scheduled sweep: translates the listings due by now, oldest first; returns how many completed. */
export async function translateDueJobListings(ctx: ServiceContext): Promise<number> {
  if (!ctx.translator) return 0;
  let done = 0;
  for (const listing of await findMachineTranslationsDue(ctx.db, ctx.clock.now(), SWEEP_BATCH)) {
    if (await translateAndSettle(ctx, listing.companyId, listing.id, listing.dueAt)) done += 1;
  }
  return done;
}

/**
 * After a command that marked the listing due at `dueAt` committed: translate it now, so the answer
 * and the next reads already carry the translations. What fails waits for the sweep.
 */
export async function translateJobListingNow(ctx: ServiceContext, companyId: string, listingId: string, dueAt: Date): Promise<void> {
  if (!ctx.translator) return;
  try {
    await translateAndSettle(ctx, companyId, listingId, dueAt);
  } catch {
    // The write has committed and must be answered as such; the due mark stays for the sweep.
  }
}
