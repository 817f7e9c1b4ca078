// The apply form of the job board and careers pages: its fields checked (the same limits as the
// API's application body), its honeypot, and the signed form token that dates when the form was
// shown (docs/decisions.md, "Public job board").
import type { ServiceContext } from '../../shared/context.ts';
import { ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import type { ApplicantInput } from '../candidates/service.ts';

/** The form's text fields, as sent (every value a string; absent ones undefined). */
export interface ApplicationFormFields {
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  coverLetter?: string | undefined;
  /** Links, one per line (or repeated fields joined by new lines). */
  links?: string | undefined;
  /** The privacy consent: "true", "on", "yes" or "1" (a checked checkbox sends "on"). */
  privacyConsent?: string | undefined;
  /** From startBoardApplication (or issueApplyFormToken), unchanged. */
  formToken?: string | undefined;
  /** The honeypot: a field people never see and leave empty. */
  website?: string | undefined;
  /** The CAPTCHA widget's answer, when the server asks for one. */
  captchaToken?: string | undefined;
}

/** The form's field names (multipart parts other than these and `resume` are refused). */
export const FORM_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'coverLetter',
  'links',
  'privacyConsent',
  'formToken',
  'website',
  'captchaToken',
] as const satisfies readonly (keyof ApplicationFormFields)[];

/** The names the CAPTCHA widgets give their answer's field, taken as captchaToken. */
export const CAPTCHA_FIELD_ALIASES: Readonly<Record<string, 'captchaToken'>> = {
  'cf-turnstile-response': 'captchaToken',
  'h-captcha-response': 'captchaToken',
};

export const COVER_LETTER_MAX = 20_000;
export const LINKS_MAX = 20;
const LINK_MAX = 2000;
/** The longest a text field of the form may be (the cover letter), in characters. */
export const FIELD_MAX = COVER_LETTER_MAX;

// What the API's `format: email` takes, near enough: one @, no spaces, a dot in the domain.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CONSENT = new Set(['true', 'on', 'yes', '1']);

export type FormCheck =
  | { honeypotFilled: true; ok: false; details: ErrorDetail[] }
  | { honeypotFilled: false; ok: false; details: ErrorDetail[] }
  | { honeypotFilled: false; ok: true; value: { candidate: ApplicantInput; coverLetter: string | undefined } };

function text(details: ErrorDetail[], field: string, raw: string | undefined, max: number, required: boolean): string | undefined {
  const value = raw?.trim() ?? '';
  if (!value) {
    if (required) details.push({ field, message: 'is required' });
    return undefined;
  }
  if (value.length > max) details.push({ field, message: `must be at most ${max} characters` });
  else if (CONTROL.test(value)) details.push({ field, message: 'must not contain control characters' });
  return value;
}

function linksOf(details: ErrorDetail[], raw: string | undefined): string[] {
  const lines = (raw ?? '').split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (lines.length > LINKS_MAX) {
    details.push({ field: 'links', message: `may hold at most ${LINKS_MAX} links` });
    return [];
  }
  const links: string[] = [];
  for (const line of lines) {
    let url: URL | undefined;
    try {
      url = line.length <= LINK_MAX ? new URL(line) : undefined;
    } catch {
      url = undefined;
    }
    // http and https only: a javascript: or data: link would run in whoever opens it.
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      details.push({ field: 'links', message: `"${line.slice(0, 100)}" is not an http or https URL` });
      continue;
    }
    links.push(line);
  }
  return links;
}

/** The form's fields checked: the honeypot first, then every field (all problems at once). */
export function checkApplicationForm(fields: ApplicationFormFields): FormCheck {
  if (fields.website !== undefined && fields.website.trim() !== '') return { honeypotFilled: true, ok: false, details: [] };
  const details: ErrorDetail[] = [];
  const firstName = text(details, 'firstName', fields.firstName, 100, true);
  const lastName = text(details, 'lastName', fields.lastName, 100, true);
  const email = text(details, 'email', fields.email, 254, true);
  if (email !== undefined && email.length <= 254 && !EMAIL.test(email)) details.push({ field: 'email', message: 'must be an e-mail address' });
  const phone = text(details, 'phone', fields.phone, 50, false);
  const coverLetter = text(details, 'coverLetter', fields.coverLetter, COVER_LETTER_MAX, false);
  const links = linksOf(details, fields.links);
  if (!CONSENT.has((fields.privacyConsent ?? '').trim().toLowerCase())) {
    details.push({ field: 'privacyConsent', message: "is required: agree to the handling of your data as the company's privacy notice says" });
  }
  if (details.length > 0) return { honeypotFilled: false, ok: false, details };
  return {
    honeypotFilled: false,
    ok: true,
    value: { candidate: { firstName: firstName!, lastName: lastName!, email: email!, phone, links }, coverLetter },
  };
}

const TOKEN_PURPOSE = 'board-apply-form';
/** A form shown longer ago than this is stale: show it again. */
const FORM_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** A new form token for this board and listing: `<issued at, ms>.<tag>`. */
export function issueFormToken(ctx: Pick<ServiceContext, 'secrets' | 'clock'>, slug: string, jobId: string): { formToken: string; notBefore: string; expiresAt: string } {
  const issuedAt = ctx.clock.now().getTime();
  const formToken = `${issuedAt}.${ctx.secrets.tag(`${slug}\u0000${jobId.toLowerCase()}\u0000${issuedAt}`, TOKEN_PURPOSE)}`;
  return { formToken, notBefore: new Date(issuedAt).toISOString(), expiresAt: new Date(issuedAt + FORM_TOKEN_LIFETIME_MS).toISOString() };
}

/**
 * 422 (field formToken) unless the token is this server's, for this board and listing, at least
 * `minSeconds` old (a person takes that long to fill the form) and younger than a day.
 */
export function checkFormToken(ctx: Pick<ServiceContext, 'secrets' | 'clock'>, token: string | undefined, slug: string, jobId: string, minSeconds: number): void {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{1,64})$/.exec(token?.trim() ?? '');
  if (!match) throw ValidationError.field('formToken', 'is missing or malformed: open the application form again');
  const issuedAt = Number(match[1]);
  if (!ctx.secrets.checkTag(`${slug}\u0000${jobId.toLowerCase()}\u0000${issuedAt}`, match[2], TOKEN_PURPOSE)) {
    throw ValidationError.field('formToken', 'is not valid for this job: open the application form again');
  }
  const age = ctx.clock.now().getTime() - issuedAt;
  if (age < minSeconds * 1000) throw ValidationError.field('formToken', 'the form was sent too quickly: wait a moment and send it again');
  if (age > FORM_TOKEN_LIFETIME_MS) throw ValidationError.field('formToken', 'has expired: open the application form again');
}
