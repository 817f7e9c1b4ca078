// The careers pages' own words (headings, labels, messages) in English and German, and the choice
// of the page language. Pure. A listing's own texts come translated from the boards service; these
// are only the words around them.
import { lookupCandidates, normalizeLanguageTag } from '../../shared/language-tags.ts';

export const UI_LANGUAGES = ['en', 'de'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

const EN = {
  jobsAt: 'Jobs at {company}',
  openPositions: 'Open positions',
  search: 'Search',
  searchLabel: 'Search jobs',
  filters: 'Filters',
  workPlace: 'Work place',
  positionType: 'Position type',
  country: 'Country',
  any: 'Any',
  apply: 'Apply',
  applyFilters: 'Show jobs',
  clearFilters: 'Clear filters',
  noJobs: 'No open positions match your search.',
  jobCount: '{count} open positions',
  jobCountOne: '1 open position',
  previous: 'Previous page',
  next: 'Next page',
  pagination: 'Pages',
  backToJobs: 'All jobs',
  aboutRole: 'About the role',
  requirements: 'Requirements',
  personalQualities: 'Personal qualities',
  skills: 'Skills',
  benefits: 'Benefits',
  salary: 'Salary',
  location: 'Location',
  posted: 'Posted',
  applyBy: 'Apply by',
  applyFor: 'Apply for this job',
  firstName: 'First name',
  lastName: 'Last name',
  email: 'E-mail',
  phone: 'Phone (optional)',
  resume: 'Résumé (PDF, Word, ODT, RTF or text)',
  coverLetter: 'Cover letter (optional)',
  links: 'Links (optional, one per line: LinkedIn, portfolio...)',
  consent: 'I agree that {company} processes my data to consider my application, as its privacy policy says.',
  privacyPolicy: 'Privacy policy',
  submit: 'Send application',
  required: 'required',
  requiredNote: 'All fields are required unless marked optional.',
  honeypot: 'Leave this field empty',
  captcha: 'Spam check',
  captchaNoScript: 'The spam check of this form needs JavaScript. Please turn JavaScript on in your browser to send your application.',
  thanksTitle: 'Thank you for applying',
  thanks: 'Your application for “{job}” has reached {company}. They will be in touch by e-mail.',
  errorsTitle: 'Please check the form',
  errBadFile: 'The résumé must be a PDF, Word, ODT, RTF or text file, and not too large.',
  errConsent: 'Please agree to the processing of your data.',
  errDuplicate: 'You have already applied for this job with this e-mail address.',
  errTooMany: 'Too many applications from your address. Please try again in a little while.',
  errInvalid: 'Some fields are missing or not valid.',
  errExpired: 'The form was sent too soon or is too old. Please send it again.',
  errCaptcha: 'The spam check was not completed or could not be confirmed. Please complete it and send the form again.',
  errField: '{field} is missing or not valid.',
  closedTitle: 'This job is no longer open',
  closed: 'This position has been filled or closed. Have a look at the other open positions.',
  notFoundTitle: 'Page not found',
  notFound: 'There is no such page here.',
  FULL_TIME: 'Full-time',
  PART_TIME: 'Part-time',
  CONTRACT: 'Contract',
  SELF_EMPLOYED: 'Freelance',
  INTERNSHIP: 'Internship',
  REMOTE: 'Remote',
  ON_SITE: 'On site',
  HYBRID: 'Hybrid',
  HOURLY: 'per hour',
  DAILY: 'per day',
  WEEKLY: 'per week',
  MONTHLY: 'per month',
  YEARLY: 'per year',
  language: 'Language',
  poweredBy: 'Careers',
};

export type MessageKey = keyof typeof EN;

const DE: Record<MessageKey, string> = {
  jobsAt: 'Jobs bei {company}',
  openPositions: 'Offene Stellen',
  search: 'Suchen',
  searchLabel: 'Stellen durchsuchen',
  filters: 'Filter',
  workPlace: 'Arbeitsort',
  positionType: 'Anstellungsart',
  country: 'Land',
  any: 'Alle',
  apply: 'Bewerben',
  applyFilters: 'Stellen anzeigen',
  clearFilters: 'Filter zurücksetzen',
  noJobs: 'Keine offene Stelle passt zu Ihrer Suche.',
  jobCount: '{count} offene Stellen',
  jobCountOne: '1 offene Stelle',
  previous: 'Vorherige Seite',
  next: 'Nächste Seite',
  pagination: 'Seiten',
  backToJobs: 'Alle Stellen',
  aboutRole: 'Über die Stelle',
  requirements: 'Anforderungen',
  personalQualities: 'Persönliche Eigenschaften',
  skills: 'Kenntnisse',
  benefits: 'Wir bieten',
  salary: 'Gehalt',
  location: 'Standort',
  posted: 'Veröffentlicht',
  applyBy: 'Bewerbung bis',
  applyFor: 'Jetzt bewerben',
  firstName: 'Vorname',
  lastName: 'Nachname',
  email: 'E-Mail',
  phone: 'Telefon (optional)',
  resume: 'Lebenslauf (PDF, Word, ODT, RTF oder Text)',
  coverLetter: 'Anschreiben (optional)',
  links: 'Links (optional, einer pro Zeile: LinkedIn, Portfolio …)',
  consent: 'Ich bin einverstanden, dass {company} meine Daten zur Prüfung meiner Bewerbung verarbeitet, wie in der Datenschutzerklärung beschrieben.',
  privacyPolicy: 'Datenschutzerklärung',
  submit: 'Bewerbung absenden',
  required: 'Pflichtfeld',
  requiredNote: 'Alle Felder sind Pflichtfelder, sofern nicht als optional gekennzeichnet.',
  honeypot: 'Dieses Feld bitte leer lassen',
  captcha: 'Spam-Schutz',
  captchaNoScript: 'Die Spam-Prüfung dieses Formulars braucht JavaScript. Bitte aktivieren Sie JavaScript in Ihrem Browser, um Ihre Bewerbung zu senden.',
  thanksTitle: 'Vielen Dank für Ihre Bewerbung',
  thanks: 'Ihre Bewerbung für „{job}“ ist bei {company} eingegangen. Sie hören per E-Mail von uns.',
  errorsTitle: 'Bitte prüfen Sie das Formular',
  errBadFile: 'Der Lebenslauf muss eine PDF-, Word-, ODT-, RTF- oder Textdatei und nicht zu groß sein.',
  errConsent: 'Bitte stimmen Sie der Verarbeitung Ihrer Daten zu.',
  errDuplicate: 'Sie haben sich mit dieser E-Mail-Adresse bereits auf diese Stelle beworben.',
  errTooMany: 'Zu viele Bewerbungen von Ihrer Adresse. Bitte versuchen Sie es gleich noch einmal.',
  errInvalid: 'Einige Felder fehlen oder sind ungültig.',
  errExpired: 'Das Formular wurde zu schnell abgeschickt oder ist zu alt. Bitte senden Sie es erneut.',
  errCaptcha: 'Die Spam-Prüfung wurde nicht abgeschlossen oder konnte nicht bestätigt werden. Bitte schließen Sie sie ab und senden Sie das Formular erneut.',
  errField: '{field} fehlt oder ist ungültig.',
  closedTitle: 'Diese Stelle ist nicht mehr offen',
  closed: 'Diese Stelle ist besetzt oder geschlossen. Sehen Sie sich die anderen offenen Stellen an.',
  notFoundTitle: 'Seite nicht gefunden',
  notFound: 'Diese Seite gibt es hier nicht.',
  FULL_TIME: 'Vollzeit',
  PART_TIME: 'Teilzeit',
  CONTRACT: 'Befristet / Vertrag',
  SELF_EMPLOYED: 'Freiberuflich',
  INTERNSHIP: 'Praktikum',
  REMOTE: 'Remote',
  ON_SITE: 'Vor Ort',
  HYBRID: 'Hybrid',
  HOURLY: 'pro Stunde',
  DAILY: 'pro Tag',
  WEEKLY: 'pro Woche',
  MONTHLY: 'pro Monat',
  YEARLY: 'pro Jahr',
  language: 'Sprache',
  poweredBy: 'Karriere',
};

const CATALOGUES: Record<UiLanguage, Record<MessageKey, string>> = { en: EN, de: DE };

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** The message function of one language; `{name}` placeholders take the values given. */
export function translator(language: UiLanguage): Translate {
  const catalogue = CATALOGUES[language];
  return (key, values) => {
    const text = catalogue[key] ?? EN[key];
    return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : text;
  };
}

/** Whether a message key exists (enum values from the listing are looked up by name). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(EN, key);
}

/**
 * The language of the page's own words: `?lang=`, else the first Accept-Language range we have
 * words for, else the language the listing's texts came in (the boards service chose it among the
 * company's languages), else English.
 */
export function uiLanguageFor(options: { lang?: string | undefined; acceptLanguage?: string | undefined; content?: string | undefined }): UiLanguage {
  const known = (tag: string | undefined): UiLanguage | undefined => {
    const primary = tag?.toLowerCase().split('-')[0];
    return (UI_LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as UiLanguage) : undefined;
  };
  const fromQuery = options.lang ? normalizeLanguageTag(options.lang) : undefined;
  if (fromQuery) return known(fromQuery) ?? known(options.content) ?? 'en';
  for (const tag of lookupCandidates(options.acceptLanguage)) {
    const found = known(tag);
    if (found) return found;
  }
  return known(options.content) ?? 'en';
}

/**
 * Dates, money and country names in one page language. Intl's formatters cost ~100 µs each to
 * make, more than the rest of a page: one set per language is made when the routes start and
 * handed to every page (money formatters kept per currency as they are first needed).
 */
export interface LocaleFormats {
  /** 27 November 2026 / 27. November 2026, in UTC. */
  date(iso: string): string;
  /** €50,000 / 50.000 € */
  money(amount: number, currency: string): string;
  /** Germany / Deutschland for DE. */
  country(code: string): string;
}

export function localeFormats(language: UiLanguage): LocaleFormats {
  const locale = language === 'de' ? 'de-DE' : 'en-GB';
  const dates = new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const regions = new Intl.DisplayNames([language], { type: 'region' });
  const currencies = new Map<string, Intl.NumberFormat | null>();
  return {
    date(iso) {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : dates.format(date);
    },
    money(amount, currency) {
      if (!currencies.has(currency) && currencies.size < 200) {
        let format: Intl.NumberFormat | null = null;
        try {
          format = new Intl.NumberFormat(locale, { style: 'currency', currency, maximumFractionDigits: 0 });
        } catch {
          format = null; // not an ISO 4217 code Intl knows
        }
        currencies.set(currency, format);
      }
      return currencies.get(currency)?.format(amount) ?? `${amount} ${currency}`;
    },
    country(code) {
      try {
        return regions.of(code) ?? code;
      } catch {
        return code;
      }
    },
  };
}
