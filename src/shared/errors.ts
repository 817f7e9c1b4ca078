// The domain error family. Services throw these; src/http/errors.ts maps them to the contract's
// error envelope in one place, so no route builds an error body by hand.

export interface ErrorDetail {
  field: string;
  message: string;
}

export class DomainError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[] | undefined;

  constructor(status: number, code: string, message: string, details?: ErrorDetail[]) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string) {
    super(404, 'NOT_FOUND', `${what} not found`);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(409, 'CONFLICT', message, details);
  }
}

export class ValidationError extends DomainError {
  constructor(details: ErrorDetail[], message = 'Request validation failed') {
    super(422, 'VALIDATION_ERROR', message, details);
  }

  static field(field: string, message: string): ValidationError {
    return new ValidationError([{ field, message }]);
  }
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Missing or invalid API key') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, details?: ErrorDetail[]) {
    super(403, 'FORBIDDEN', message, details);
  }
}
