// The contract's error envelope, as a schema for the OpenAPI document and as a builder.
import { Type } from 'typebox';
import { ERROR_CODES, type ErrorDetail } from '../shared/errors.ts';

/**
 * Codes only the HTTP layer produces (framework and parser errors, the database being busy, a
 * server fault), besides the domain's ERROR_CODES. Together: every value `error` can take.
 */
export const HTTP_ERROR_CODES = [
  'METHOD_NOT_ALLOWED',
  'NOT_ACCEPTABLE',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'REQUEST_TIMEOUT',
  'EXPECTATION_FAILED',
  'REQUEST_HEADER_FIELDS_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export const API_ERROR_CODES = [...ERROR_CODES, ...HTTP_ERROR_CODES.filter((code) => !(ERROR_CODES as readonly string[]).includes(code))];
export type ApiErrorCode = (typeof ERROR_CODES)[number] | (typeof HTTP_ERROR_CODES)[number];

export const ErrorEnvelope = Type.Object(
  {
    status: Type.Integer({ description: 'HTTP status' }),
    error: Type.Unsafe<ApiErrorCode>({
      type: 'string',
      enum: API_ERROR_CODES,
      description: 'Error code: what went wrong, for programs (the message is for people)',
    }),
    message: Type.String({ description: 'Readable reason' }),
    timestamp: Type.String({ format: 'date-time' }),
    path: Type.String({ description: 'Request path' }),
    details: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), message: Type.String() }), {
        description: 'Present on validation errors: one entry per failing field',
      }),
    ),
  },
  { $id: 'ErrorEnvelope', title: 'Error' },
);

export interface ErrorBody {
  status: number;
  error: ApiErrorCode;
  message: string;
  timestamp: string;
  path: string;
  details?: ErrorDetail[];
}

export function errorBody(
  status: number,
  error: ApiErrorCode,
  message: string,
  url: string,
  details?: ErrorDetail[],
): ErrorBody {
  const body: ErrorBody = {
    status,
    error,
    message,
    timestamp: new Date().toISOString(),
    path: url.split('?')[0],
  };
  if (details && details.length > 0) body.details = details;
  return body;
}

export const ERROR_RESPONSE_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: a JSON body that does not parse, a path that does not decode, or a credential in the query string (send it in its header)',
  401: 'Missing, invalid, expired or revoked API key',
  403: 'The key lacks the required scope (named in details)',
  404: 'The addressed resource does not exist (or belongs to another company)',
  409: 'The request conflicts with the current state of the resource',
  410: 'The resource is no longer available (a job listing that is no longer open)',
  412: 'If-Match does not match the current ETag of the resource: it changed since it was read',
  413: 'Body larger than 1 MB',
  414: 'A path parameter is too long',
  415: 'Body is not JSON',
  422: 'Request validation failed; details lists the failing fields',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Server fault (no internals are shown)',
  503: 'The database is busy (no free connection in time, or a statement timed out) or could not be reached; see Retry-After',
};

/** Error responses for a route's OpenAPI entry: every operation documents the envelope. */
export function errorResponses(statuses: number[]): Record<number, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { ...Type.Ref('ErrorEnvelope'), description: ERROR_RESPONSE_DESCRIPTIONS[status] ?? 'Error' },
    ]),
  );
}
