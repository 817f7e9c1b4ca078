// Turns stored rows into the API's job listing, with every translatable text as a translated
// text object in the response language. Pure: the service loads rows and translations.
import type { JobListingListItemView, JobListingView, TranslatedTextView } from './schemas.ts';
import type { TranslationType } from './listing-values.ts';
import type {
  jobListingBenefits,
  jobListingHiringSteps,
  jobListingRequirements,
  jobListingSkills,
  jobListings,
  jobListingTags,
  jobListingTranslations,
} from './tables.ts';

export type JobListingRow = typeof jobListings.$inferSelect;
export type SkillRow = typeof jobListingSkills.$inferSelect;
export type BenefitRow = typeof jobListingBenefits.$inferSelect;
export type HiringStepRow = typeof jobListingHiringSteps.$inferSelect;
export type TagLinkRow = typeof jobListingTags.$inferSelect;
export type RequirementRow = typeof jobListingRequirements.$inferSelect;
export type TranslationRow = typeof jobListingTranslations.$inferSelect;

/** A listing with its child collections, each in display order. */
export interface JobListingAggregate {
  listing: JobListingRow;
  skills: SkillRow[];
  benefits: BenefitRow[];
  hiringSteps: HiringStepRow[];
  tags: TagLinkRow[];
  requirements: RequirementRow[];
}

/** The kinds of translatable text; a translation is stored against one kind and one original. */
export const TEXT_FIELDS = [
  'position',
  'jobDescription',
  'requirementsSummary',
  'personalQualitiesSummary',
  'salaryDescription',
  'fieldOfStudy',
  'benefits',
  'skills',
  'hiringProcessSteps.stepName',
  'hiringProcessSteps.description',
] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

export interface SourceText {
  field: TextField;
  source: string;
}

/** Every translatable text the listing has now (each once). */
export function sourceTexts(aggregate: JobListingAggregate): SourceText[] {
  const { listing } = aggregate;
  const texts: SourceText[] = [];
  const add = (field: TextField, source: string | null) => {
    if (source !== null && source !== '' && !texts.some((t) => t.field === field && t.source === source)) {
      texts.push({ field, source });
    }
  };
  add('position', listing.position);
  add('jobDescription', listing.jobDescription);
  add('requirementsSummary', listing.requirementsSummary);
  add('personalQualitiesSummary', listing.personalQualitiesSummary);
  add('salaryDescription', listing.salaryDescription);
  add('fieldOfStudy', listing.fieldOfStudy);
  for (const benefit of aggregate.benefits) add('benefits', benefit.value);
  for (const skill of aggregate.skills) add('skills', skill.value);
  for (const step of aggregate.hiringSteps) {
    add('hiringProcessSteps.stepName', step.stepName);
    add('hiringProcessSteps.description', step.description);
  }
  return texts;
}

export interface Translation {
  text: string;
  type: TranslationType;
}

/** Translations into one language, by (field, original). A HUMAN translation wins over an AI one. */
export class TranslationLookup {
  private readonly byKey = new Map<string, Translation>();

  constructor(rows: Iterable<Pick<TranslationRow, 'field' | 'sourceText' | 'text' | 'translationType'>> = []) {
    for (const row of rows) this.add(row.field, row.sourceText, { text: row.text, type: row.translationType as TranslationType });
  }

  add(field: string, source: string, translation: Translation): void {
    const key = `${field}\u0000${source}`;
    const existing = this.byKey.get(key);
    if (existing?.type === 'HUMAN' && translation.type !== 'HUMAN') return;
    this.byKey.set(key, translation);
  }

  get(field: string, source: string): Translation | undefined {
    return this.byKey.get(`${field}\u0000${source}`);
  }

  get size(): number {
    return this.byKey.size;
  }
}

/** The texts that still need a translation (for the machine translator). */
export function untranslated(aggregate: JobListingAggregate, lookup: TranslationLookup): SourceText[] {
  return sourceTexts(aggregate).filter((text) => !lookup.get(text.field, text.source));
}

function translatedText(
  field: TextField,
  original: string,
  sourceLanguage: string,
  lookup: TranslationLookup | undefined,
): TranslatedTextView {
  const translation = lookup?.get(field, original);
  return translation
    ? { value: translation.text, original, sourceLanguage, translated: true, translationType: translation.type }
    : { value: original, original, sourceLanguage, translated: false, translationType: null };
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/**
 * The full listing. `lookup` holds the translations into the response language; undefined (or
 * empty) answers the originals.
 */
export function toJobListingView(aggregate: JobListingAggregate, lookup?: TranslationLookup): JobListingView {
  const { listing } = aggregate;
  const lang = listing.language;
  const tt = (field: TextField, original: string) => translatedText(field, original, lang, lookup);
  const optional = (field: TextField, original: string | null) => (original === null ? null : tt(field, original));
  const address = {
    street: listing.addressStreet,
    city: listing.addressCity,
    state: listing.addressState,
    country: listing.addressCountry,
    postalCode: listing.addressPostalCode,
    latitude: listing.addressLatitude,
    longitude: listing.addressLongitude,
  };
  return {
    id: listing.id,
    companyId: listing.companyId,
    status: listing.status as JobListingView['status'],
    sectorId: listing.sectorId,
    position: tt('position', listing.position),
    positionType: listing.positionType as JobListingView['positionType'],
    workPlaceType: listing.workPlaceType as JobListingView['workPlaceType'],
    address: Object.values(address).every((value) => value === null) ? null : address,
    isStartDate: listing.isStartDate,
    startDate: listing.startDate,
    jobDescription: optional('jobDescription', listing.jobDescription),
    requirementsSummary: optional('requirementsSummary', listing.requirementsSummary),
    personalQualitiesSummary: optional('personalQualitiesSummary', listing.personalQualitiesSummary),
    skills: aggregate.skills.map((skill) => ({
      value: tt('skills', skill.value),
      type: skill.type as JobListingView['skills'][number]['type'],
      expertType: skill.expertType as JobListingView['skills'][number]['expertType'],
      languageProficiency: skill.languageProficiency as JobListingView['skills'][number]['languageProficiency'],
      drivingClass: skill.drivingClass as JobListingView['skills'][number]['drivingClass'],
    })),
    currency: listing.currency,
    salaryBase: listing.salaryBase,
    isSalaryMax: listing.isSalaryMax,
    salaryMax: listing.salaryMax,
    salaryType: listing.salaryType as JobListingView['salaryType'],
    paymentInterval: listing.paymentInterval as JobListingView['paymentInterval'],
    salaryDescription: optional('salaryDescription', listing.salaryDescription),
    benefits: aggregate.benefits.map((benefit) => tt('benefits', benefit.value)),
    educationLevel: listing.educationLevel as JobListingView['educationLevel'],
    fieldOfStudy: optional('fieldOfStudy', listing.fieldOfStudy),
    yearsOfExperience: listing.yearsOfExperience,
    availableForEveryCountry: listing.availableForEveryCountry,
    numberOfPositionsOpened: listing.numberOfPositionsOpened,
    jobListingEndDate: listing.jobListingEndDate,
    referenceNumber: listing.referenceNumber,
    hiringProcessSteps: aggregate.hiringSteps.map((step) => ({
      id: step.id,
      jobListingId: step.jobListingId,
      stepOrder: step.stepOrder,
      stepName: tt('hiringProcessSteps.stepName', step.stepName),
      description: optional('hiringProcessSteps.description', step.description),
    })),
    jobListingTags: aggregate.tags.map((tag) => ({ id: tag.id, jobListingId: tag.jobListingId, tagId: tag.tagId })),
    jobListingRequirements: aggregate.requirements.map((requirement) => ({
      id: requirement.id,
      jobListingId: requirement.jobListingId,
      requirementText: requirement.requirementText,
    })),
    rejectionReason: listing.rejectionReason,
    createdAt: listing.createdAt.toISOString(),
    updatedAt: listing.updatedAt.toISOString(),
    publishedAt: iso(listing.publishedAt),
    expiresAt: iso(listing.expiresAt),
    closedAt: iso(listing.closedAt),
  };
}

/** The list item: exactly the contract's six fields, position with only value and translated. */
export function toJobListingListItem(
  listing: Pick<JobListingRow, 'id' | 'status' | 'position' | 'positionType' | 'workPlaceType' | 'createdAt' | 'updatedAt'>,
  lookup?: TranslationLookup,
): JobListingListItemView {
  const translation = lookup?.get('position', listing.position);
  return {
    id: listing.id,
    status: listing.status as JobListingListItemView['status'],
    position: translation ? { value: translation.text, translated: true } : { value: listing.position, translated: false },
    positionType: listing.positionType as JobListingListItemView['positionType'],
    workPlaceType: listing.workPlaceType as JobListingListItemView['workPlaceType'],
    createdAt: listing.createdAt.toISOString(),
    updatedAt: listing.updatedAt.toISOString(),
  };
}
