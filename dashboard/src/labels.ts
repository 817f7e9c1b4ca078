// Words for every value the API spells as an enumeration or a code, so a recruiter's screen never
// shows FULL_TIME, ON_SITE or "de-CH". One name per application stage, used on every page. Pure (no
// React, no DOM beyond Intl), so it is tested without a browser. The Record types make the compiler
// refuse a value the API adds and this file leaves out.
import type { Schemas } from '@recruiting/sdk';

type Listing = Schemas['JobListing'];
type Application = Schemas['ApplicationSummary'];

export type PositionType = Listing['positionType'];
export type WorkPlaceType = Listing['workPlaceType'];
export type ListingStatus = Listing['status'];
export type Stage = Application['status'];
export type Source = NonNullable<Application['source']>;
export type ReasonKind = Schemas['RejectionReason']['kind'];

export const POSITION_TYPE_LABELS: Record<PositionType, string> = {
  FULL_TIME: 'Full time',
  PART_TIME: 'Part time',
  CONTRACT: 'Contract',
  SELF_EMPLOYED: 'Freelance',
  INTERNSHIP: 'Internship',
};

export const WORK_PLACE_LABELS: Record<WorkPlaceType, string> = {
  ON_SITE: 'On site',
  HYBRID: 'Hybrid',
  REMOTE: 'Remote',
};

export const LISTING_STATUS_LABELS: Record<ListingStatus, string> = {
  DRAFT: 'Draft',
  ACTIVE: 'Active',
  UNDER_REVIEW: 'Under review',
  CLOSED: 'Closed',
  ARCHIVED: 'Archived',
};

/** The one name of each application stage, in the pipeline's order. ACTIVE is a new application ("Applied"). */
export const STAGE_LABELS: Record<Stage, string> = {
  ACTIVE: 'Applied',
  IN_REVIEW: 'In review',
  INTERVIEW: 'Interview',
  OFFER: 'Offer',
  HIRED: 'Hired',
  REJECTED: 'Rejected',
  WITHDRAWN: 'Withdrawn',
};
export const STAGES = Object.keys(STAGE_LABELS) as Stage[];
/** The stages an application is still moving through (the funnel's). */
export const OPEN_STAGES: Stage[] = ['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED'];

export const SOURCE_LABELS: Record<Source, string> = {
  EXTERNAL: 'External',
  INTERNAL: 'Internal',
  REFERRAL: 'Referral',
  AGENCY: 'Agency',
  JOB_BOARD: 'Job board',
  CAREER_SITE: 'Own careers site',
  CAREERS_PAGE: 'Careers page',
  IMPORTED: 'Imported',
};

export const REASON_KIND_LABELS: Record<ReasonKind, string> = {
  REJECTION: 'Rejected by us',
  WITHDRAWAL: 'Withdrawn by the candidate',
};

export const SKILL_TYPE_LABELS: Record<string, string> = {
  SKILL: 'Skill',
  LANGUAGE: 'Language',
  DRIVING_LICENSE: 'Driving licence',
  CERTIFICATION: 'Certification',
  SOFTWARE: 'Software',
};
export const EXPERTISE_LABELS: Record<string, string> = { BEGINNER: 'Beginner', INTERMEDIATE: 'Intermediate', ADVANCED: 'Advanced', EXPERT: 'Expert' };
export const SALARY_TYPE_LABELS: Record<string, string> = { GROSS: 'Gross', NET: 'Net' };
export const PAYMENT_INTERVAL_LABELS: Record<string, string> = { HOURLY: 'Per hour', DAILY: 'Per day', WEEKLY: 'Per week', MONTHLY: 'Per month', YEARLY: 'Per year' };
export const EDUCATION_LABELS: Record<string, string> = {
  NONE: 'None required',
  PRIMARY: 'Primary school',
  SECONDARY: 'Secondary school',
  VOCATIONAL: 'Vocational training',
  ASSOCIATE: 'Associate degree',
  BACHELOR: "Bachelor's degree",
  MASTER: "Master's degree",
  DOCTORATE: 'Doctorate',
};
export const FILE_KIND_LABELS: Record<string, string> = { RESUME: 'Résumé', COVER_LETTER: 'Cover letter', PORTFOLIO: 'Portfolio', OTHER: 'Other' };
export const TRANSLATION_TYPE_LABELS: Record<string, string> = { HUMAN: 'By a person', AI: 'Machine translated' };

/** The words for a value, or the value itself in sentence case when no label is known. */
export function label(labels: Record<string, string>, value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  return labels[value] ?? humanize(value);
}

/** SOME_VALUE → "Some value": the last resort for a value this file has no words for. */
export function humanize(value: string): string {
  const words = value.replace(/[_.]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Select options ({ value, label }) from a label map, in its order. */
export function options<T extends string>(labels: Record<T, string>, values?: readonly T[]): Array<{ value: T; label: string }> {
  return (values ?? (Object.keys(labels) as T[])).map((value) => ({ value, label: labels[value] ?? humanize(value) }));
}

/** "1 listing", "3 listings", "0 applications"; the plural is given when it is not noun + "s". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatNumber(count)} ${count === 1 ? one : many}`;
}

/** A number for people: rounded to `digits` decimals (none by default), grouped by thousands. */
export function formatNumber(value: number, digits = 0): string {
  return new Intl.NumberFormat('en', { maximumFractionDigits: digits }).format(value);
}

/** 19.99 → "20 days", 0.4 → "less than a day", 1 → "1 day". */
export function formatDays(days: number | null | undefined): string {
  if (days === null || days === undefined || !Number.isFinite(days)) return '–';
  if (days > 0 && days < 0.5) return 'less than a day';
  return plural(Math.round(days), 'day');
}

/** 0.4567 → "46%". */
export function formatPercent(rate: number | null | undefined): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return '–';
  return `${Math.round(rate * 100)}%`;
}

const DISPLAY_NAMES = {
  language: new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }),
  region: new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }),
  currency: new Intl.DisplayNames(['en'], { type: 'currency' }),
};
/** The code lists the browser's Intl gives, read once per page load (they do not change). */
const cache: { countries?: string[]; languages?: string[]; currencies?: string[] } = {};

function displayName(type: 'language' | 'region', code: string): string | undefined {
  try {
    const name = DISPLAY_NAMES[type].of(code);
    return name && name !== code ? name : undefined;
  } catch {
    return undefined;
  }
}

/** "de" → "German", "de-CH" → "Swiss High German"; the code itself when no name is known. */
export function languageName(tag: string): string {
  return displayName('language', tag) ?? tag;
}

/** "CH" → "Switzerland"; the code itself when no name is known. */
export function countryName(code: string): string {
  return displayName('region', code.toUpperCase()) ?? code;
}

// Region codes the browser names that are not ISO 3166-1 countries (groupings, old or reserved codes).
const NOT_COUNTRIES = new Set('AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB XK YD YU ZR ZZ'.split(' '));

/** The ISO 3166-1 alpha-2 codes (the API's list): every two-letter region the browser names, less NOT_COUNTRIES. */
export function countryCodes(): string[] {
  if (cache.countries) return cache.countries;
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const codes: string[] = [];
  for (const a of letters) for (const b of letters) if (!NOT_COUNTRIES.has(a + b) && displayName('region', a + b)) codes.push(a + b);
  cache.countries = codes;
  return codes;
}

/** Country select options ("Switzerland" for CH) sorted by name; `extra` keeps a stored code the list lacks. */
export function countryOptions(extra: readonly string[] = []): Array<{ value: string; label: string }> {
  const codes = [...new Set([...extra.filter(Boolean), ...countryCodes()])];
  return codes.map((code) => ({ value: code, label: countryName(code) })).sort((a, b) => a.label.localeCompare(b.label));
}

/**
 * Languages a person is likely to pick, as BCP 47 tags: the main ones with a name in the browser. A
 * select offers these by name (searchable); any other well-formed tag can still be typed.
 */
export const COMMON_LANGUAGES = [
  'ar', 'bg', 'bs', 'ca', 'cs', 'cy', 'da', 'de', 'de-AT', 'de-CH', 'el', 'en', 'en-GB', 'en-US', 'es', 'es-MX', 'et', 'eu', 'fa',
  'fi', 'fr', 'fr-CA', 'fr-CH', 'ga', 'gl', 'he', 'hi', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'it-CH', 'ja', 'ka', 'kk', 'ko', 'lb', 'lt',
  'lv', 'mk', 'ms', 'mt', 'nb', 'nl', 'nl-BE', 'nn', 'pl', 'pt', 'pt-BR', 'pt-PT', 'rm', 'ro', 'ru', 'sk', 'sl', 'sq', 'sr', 'sv',
  'sw', 'th', 'tl', 'tr', 'uk', 'ur', 'vi', 'zh', 'zh-Hans', 'zh-Hant',
] as const;

/**
 * Every language the browser has a name for with a two-letter code, the common regional variants and
 * the given tags, as select options sorted by name (a searchable select finds one by its name).
 */
export function languageOptions(extra: readonly string[] = []): Array<{ value: string; label: string }> {
  if (!cache.languages) {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    cache.languages = [];
    for (const a of letters) for (const b of letters) if (displayName('language', a + b)) cache.languages.push(a + b);
  }
  const twoLetter = cache.languages;
  const tags = [...new Set([...extra, ...COMMON_LANGUAGES, ...twoLetter])];
  return tags.map((tag) => ({ value: tag, label: languageName(tag) })).sort((a, b) => a.label.localeCompare(b.label));
}

/** Currency select options (ISO 4217 codes the browser knows) as "Euro (EUR)", sorted by name. */
export function currencyOptions(extra: readonly string[] = []): Array<{ value: string; label: string }> {
  if (!cache.currencies) {
    try {
      cache.currencies = Intl.supportedValuesOf('currency');
    } catch {
      cache.currencies = ['CHF', 'EUR', 'GBP', 'USD'];
    }
  }
  const names = DISPLAY_NAMES.currency;
  return [...new Set([...extra.filter(Boolean), ...cache.currencies])]
    .map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
