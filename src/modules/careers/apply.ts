// The Apply form as posted (multipart/form-data): its text fields read in order, then the résumé
// handed on as a stream (never held whole). The form puts the file last, so every field has
// arrived before the file is read; a part after the file is not read (a browser sends the form in
// its order, and this form's order puts the file last).
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { CAPTCHA_FIELD_ALIASES, FORM_FIELDS, type ApplicationFormFields } from '../boards/form.ts';
import { DomainError } from '../../shared/errors.ts';
import type { ApplyValues } from './html.ts';

export type ApplicationFields = ApplicationFormFields;

/** The field names of the form (the boards service's), and the file's. */
export const HONEYPOT_FIELD = 'website';
export const TOKEN_FIELD = 'formToken';
export const CONSENT_FIELD = 'privacyConsent';
export const RESUME_FIELD = 'resume';

const KNOWN = new Set<string>(FORM_FIELDS);

export interface PostedForm {
  fields: ApplicationFields;
  resume: { fileName: string; content: AsyncIterable<Uint8Array> } | undefined;
}

/**
 * Reads the text parts up to the résumé. Answers with the résumé's stream still unread (the
 * caller hands it on). 400 when the body is not multipart/form-data.
 */
export async function readApplyForm(request: FastifyRequest): Promise<PostedForm> {
  if (!request.isMultipart()) throw new DomainError('BAD_REQUEST', 'The form must be sent as multipart/form-data');
  const fields: Record<string, string> = {};
  // Read by hand, not with for-await: leaving a for-await loop would end the parts' iterator, and
  // with it the résumé's stream before the caller reads it.
  const parts = request.parts()[Symbol.asyncIterator]();
  for (;;) {
    const next = await parts.next();
    if (next.done) return { fields: fields as ApplicationFields, resume: undefined };
    const part = next.value;
    if (part.type === 'file') {
      const file = part as MultipartFile;
      if (file.fieldname !== RESUME_FIELD || file.filename === '') {
        // An empty file input sends a part with no name and no bytes: no résumé.
        file.file.resume();
        continue;
      }
      return { fields: fields as ApplicationFields, resume: { fileName: file.filename, content: file.file } };
    }
    const value = part as MultipartValue<unknown>;
    // The CAPTCHA widget names its answer's field itself (cf-turnstile-response, h-captcha-response).
    const name: string = CAPTCHA_FIELD_ALIASES[value.fieldname] ?? value.fieldname;
    if (KNOWN.has(name) && typeof value.value === 'string' && !(name in fields)) fields[name] = value.value;
  }
}

/** What the candidate typed, to show the form again (never the file, the token or the honeypot). */
export function valuesOf(fields: ApplicationFields): ApplyValues {
  return {
    firstName: fields.firstName,
    lastName: fields.lastName,
    email: fields.email,
    phone: fields.phone,
    coverLetter: fields.coverLetter,
    links: fields.links,
    consent: fields.privacyConsent !== undefined && fields.privacyConsent !== '',
  };
}
