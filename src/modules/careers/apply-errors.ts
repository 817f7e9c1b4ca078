// A refused application as the candidate reads it: the boards service's coded error turned into
// the HTTP status of the re-shown form and messages in the page's language, per field where the
// error names one. Pure.
import type { DomainError } from '../../shared/errors.ts';
import type { ApplyField } from './html.ts';
import type { MessageKey, Translate } from './i18n.ts';

const STATUS: Partial<Record<DomainError['code'], number>> = {
  VALIDATION_ERROR: 422,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PAYLOAD_TOO_LARGE: 413,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  BAD_REQUEST: 400,
};

/** The form's fields under the names the boards service may give them in an error's details. */
const FIELD_NAMES: Record<string, ApplyField> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  phone: 'phone',
  resume: 'resume',
  file: 'resume',
  coverLetter: 'coverLetter',
  links: 'links',
  consent: 'consent',
  privacyConsent: 'consent',
  captchaToken: 'captcha',
};

const FIELD_LABELS: Record<ApplyField, MessageKey> = {
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  phone: 'phone',
  resume: 'resume',
  coverLetter: 'coverLetter',
  links: 'links',
  consent: 'consent',
  captcha: 'captcha',
};

export interface ApplyErrors {
  status: number;
  formErrors: string[];
  fieldErrors: Partial<Record<ApplyField, string>>;
}

export function applyErrorsOf(error: DomainError, t: Translate): ApplyErrors {
  const status = STATUS[error.code] ?? 400;
  const fieldErrors: Partial<Record<ApplyField, string>> = {};
  const formErrors: string[] = [];
  switch (error.code) {
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'PAYLOAD_TOO_LARGE':
      fieldErrors.resume = t('errBadFile');
      break;
    case 'CONFLICT':
      formErrors.push(t('errDuplicate'));
      break;
    case 'TOO_MANY_REQUESTS':
      formErrors.push(t('errTooMany'));
      break;
    case 'VALIDATION_ERROR': {
      const details = error.details ?? [];
      // The honeypot filled (no detail), the form token too young, too old or foreign: one message
      // that tells a person what to do and a bot nothing. (A CAPTCHA missing, refused or not
      // checked in time is the captcha field's: complete it again.)
      if (details.length === 0 || details.some((detail) => detail.field === 'formToken')) {
        formErrors.push(t('errExpired'));
        break;
      }
      for (const detail of details) {
        // A detail names the field first ("resume", "links[2]"...).
        const field = FIELD_NAMES[detail.field.split(/[.[]/)[0]];
        if (!field) continue;
        if (field === 'consent') fieldErrors.consent = t('errConsent');
        else if (field === 'captcha') fieldErrors.captcha = t('errCaptcha');
        else if (field === 'resume') fieldErrors.resume = t('errBadFile');
        else fieldErrors[field] ??= t('errField', { field: t(FIELD_LABELS[field]).replace(/\s*\(.*\)$/, '') });
      }
      if (Object.keys(fieldErrors).length === 0) formErrors.push(t('errInvalid'));
      break;
    }
    default:
      formErrors.push(t('errExpired'));
  }
  return { status, formErrors, fieldErrors };
}
