// The domain error family. Services throw these with a code and no HTTP status: src/http/errors.ts
// maps each code to its status and the contract's error envelope in one place, so no route builds
// an error body by hand and the CLI can report the same errors without knowing about HTTP.

export interface ErrorDetail {
  field: string;
  message: string;
}

/** Every code an error may carry; http/errors.ts gives each its status (the map must be complete). */
export const ERROR_CODES = [
  'NOT_FOUND',
  'CONFLICT',
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'HTTPS_REQUIRED',
  'BAD_REQUEST',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'TOO_MANY_REQUESTS',
  'WEBHOOK_UNREACHABLE',
  'SIGN_IN_EXPIRED',
  'EMAIL_NOT_VERIFIED',
  'PRECONDITION_FAILED',
  'GONE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super('NOT_FOUND', `${what} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('CONFLICT', message, details);
  }
}

export class ValidationError extends DomainError {
  constructor(details: ErrorDetail[], message = 'Request validation failed') {
    super('VALIDATION_ERROR', message, details);
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Missing or invalid API key') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super('FORBIDDEN', message, details);
  }
}

/** The resource was there and is no more (a public listing that closed): 410. */
export class GoneError extends DomainError {
  constructor(message: string) {
    super('GONE', message);
  }
}
