import { describe, expect, it } from 'vitest';
import { ConflictError, DomainError, ValidationError } from '../../shared/errors.ts';
import { applyErrorsOf } from './apply-errors.ts';
import { translator } from './i18n.ts';

const en = translator('en');
const de = translator('de');

describe('applyErrorsOf', () => {
  it('shows a refused file against the résumé field with 415', () => {
    expect(applyErrorsOf(new DomainError('UNSUPPORTED_MEDIA_TYPE', 'no'), en)).toEqual({
      status: 415,
      formErrors: [],
      fieldErrors: { resume: en('errBadFile') },
    });
  });

  it('says "already applied" for a duplicate (409) and asks to wait when rate limited (429), in German too', () => {
    expect(applyErrorsOf(new ConflictError('dup'), de)).toMatchObject({ status: 409, formErrors: [de('errDuplicate')] });
    expect(applyErrorsOf(new DomainError('TOO_MANY_REQUESTS', 'slow down'), en)).toMatchObject({ status: 429, formErrors: [en('errTooMany')] });
  });

  it('puts each validation detail on its field: missing consent, a bad e-mail', () => {
    const result = applyErrorsOf(new ValidationError([{ field: 'privacyConsent', message: 'must be true' }, { field: 'email', message: 'bad' }]), en);
    expect(result.status).toBe(422);
    expect(result.fieldErrors).toEqual({ consent: en('errConsent'), email: 'E-mail is missing or not valid.' });
    expect(result.formErrors).toEqual([]);
  });

  it('answers a general message for details about no field of the form, and for anything else', () => {
    expect(applyErrorsOf(new ValidationError([{ field: 'other', message: 'x' }]), en).formErrors).toEqual([en('errInvalid')]);
    expect(applyErrorsOf(new DomainError('BAD_REQUEST', 'not multipart'), en)).toEqual({ status: 400, formErrors: [en('errExpired')], fieldErrors: {} });
  });

  it('tells a filled honeypot and a form sent too fast alike: send it again', () => {
    expect(applyErrorsOf(new ValidationError([], 'The application could not be accepted'), en).formErrors).toEqual([en('errExpired')]);
    expect(applyErrorsOf(new ValidationError([{ field: 'formToken', message: 'too quickly' }]), de).formErrors).toEqual([de('errExpired')]);
  });

  it('asks to complete the CAPTCHA again at its place when it was missing, refused or not checked in time', () => {
    expect(applyErrorsOf(new ValidationError([{ field: 'captchaToken', message: 'is required' }]), de)).toEqual({
      status: 422,
      formErrors: [],
      fieldErrors: { captcha: de('errCaptcha') },
    });
  });
});
