// Request validation. Two Ajv instances: query strings, params and headers arrive as text and are
// coerced ("?size=5" is the number 5); JSON bodies are not coerced, so "salaryBase": "100" is a
// 422 rather than a silent guess. allErrors gives one `details` entry per failing field, and
// unknown body fields are rejected rather than silently dropped.
//
// Rules every schema gets without saying so, because each one broke the database or the process
// when left to the individual schemas:
// - no string anywhere (body, query, params, headers) holds a NUL or a lone UTF-16 surrogate:
//   PostgreSQL text cannot store either, and a 500 is the wrong answer;
// - `date` and `date-time` are years 1900 to 2999 (both PostgreSQL and Date hold them, and the
//   day arithmetic on them stays in range) and refuse the leap second 23:59:60, which Date and
//   PostgreSQL would silently move to the next minute or refuse;
// - integers and numbers in query strings, params and headers are decimal digits only: Number()
//   would read "0x10" as 16 and "1e3" as 1000.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../shared/errors.ts';
import { holdsUnstorableText, unstorableText } from '../shared/storable-text.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export const MIN_YEAR = 1900;
export const MAX_YEAR = 2999;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
const DATE_MESSAGE = `must be a date (YYYY-MM-DD) in the years ${MIN_YEAR} to ${MAX_YEAR}`;
const DATE_TIME_MESSAGE = `must be an RFC 3339 date-time (e.g. 2024-05-01T09:30:00Z) in the years ${MIN_YEAR} to ${MAX_YEAR}`;

function validDay(year: number, month: number, day: number): boolean {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6])];
  if (hour > 23 || minute > 59 || second > 59) return false; // no leap second
  return m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59);
}

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  // Replace ajv-formats' own: see the rules at the top of this file.
  ajv.addFormat('date', { type: 'string', validate: isDate });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
  return ajv;
}

type Validate = ((data: unknown, ...rest: unknown[]) => boolean) & { errors?: ErrorObject[] | null; schemaEnv?: unknown };

function problem(instancePath: string, keyword: string, message: string): ErrorObject {
  return { instancePath, schemaPath: '#', keyword, params: {}, message };
}

const MAX_SCAN_DEPTH = 64; // bodies are capped at 32 levels before they get here (json-body.ts)

/** Every string (and object key) that cannot be stored, wherever it sits in the value. */
function scanText(value: unknown, path: string, found: ErrorObject[], depth = 0): void {
  if (typeof value === 'string') {
    const why = unstorableText(value);
    if (why) found.push(problem(path, 'storableText', why));
    return;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_SCAN_DEPTH) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => scanText(item, `${path}/${index}`, found, depth + 1));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyPath = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const why = unstorableText(key);
    if (why) found.push(problem(keyPath, 'storableText', why));
    scanText(item, keyPath, found, depth + 1);
  }
}

const DECIMAL_INTEGER = /^-?\d{1,16}$/;
const DECIMAL_NUMBER = /^-?\d{1,16}(?:\.\d{1,16})?$/;

/** Query, params and headers: numbers must be written in decimal before Ajv coerces them. */
function scanNumbers(schema: Record<string, unknown>, data: unknown, found: ErrorObject[]): void {
  const properties = schema.properties as Record<string, { type?: unknown }> | undefined;
  if (!properties || data === null || typeof data !== 'object') return;
  for (const [name, property] of Object.entries(properties)) {
    const pattern = property.type === 'integer' ? DECIMAL_INTEGER : property.type === 'number' ? DECIMAL_NUMBER : undefined;
    const raw = (data as Record<string, unknown>)[name];
    if (!pattern || raw === undefined) continue;
    for (const item of [raw].flat()) {
      if (typeof item === 'string' && !pattern.test(item)) {
        found.push(problem(`/${name}`, 'decimal', `must be ${property.type === 'integer' ? 'a whole number' : 'a number'} in decimal digits`));
        break;
      }
    }
  }
}

/** Runs the checks above ahead of the schema's own, keeping Ajv's calling convention. */
function withSharedRules(validate: Validate, schema: Record<string, unknown>, textPart: boolean): Validate {
  const wrapped: Validate = (data, ...rest) => {
    const found: ErrorObject[] = [];
    // Every request's query and headers pass here: the paths are worked out only for a bad value.
    if (holdsUnstorableText(data, MAX_SCAN_DEPTH)) scanText(data, '', found);
    if (textPart) scanNumbers(schema, data, found);
    const valid = validate(data, ...rest);
    wrapped.errors = found.length > 0 ? [...found, ...(validate.errors ?? [])] : validate.errors;
    return valid && found.length === 0;
  };
  wrapped.schemaEnv = validate.schemaEnv;
  return wrapped;
}

/** A validator compiler that knows the app's shared schemas (those referenced by $ref). */
export function buildValidatorCompiler(sharedSchemas: object[]): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv('array');
  for (const schema of sharedSchemas) {
    bodyAjv.addSchema(schema);
    textAjv.addSchema(schema);
  }
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return withSharedRules(ajv.compile(schema as object) as Validate, schema as Record<string, unknown>, httpPart !== 'body');
  };
}

/** "/candidates/3/email" -> "candidates[3].email" */
function toFieldPath(pointer: string): string {
  return pointer
    .split('/')
    .filter(Boolean)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function describe(error: ErrorObject): ErrorDetail {
  const base = toFieldPath(error.instancePath);
  const join = (name: string) => (base ? `${base}.${name}` : name);
  switch (error.keyword) {
    case 'required':
      return { field: join(error.params.missingProperty as string), message: 'is required' };
    case 'additionalProperties':
      return { field: join(error.params.additionalProperty as string), message: 'is not a known field' };
    case 'enum': {
      const allowed = error.params.allowedValues as unknown[];
      // Long lists (countries) are in the schema; the message would drown the answer.
      const message = allowed.length > 30 ? 'is not one of the allowed values' : `must be one of ${allowed.join(', ')}`;
      return { field: base || '(root)', message };
    }
    case 'format':
      if (error.params.format === 'date') return { field: base || '(root)', message: DATE_MESSAGE };
      if (error.params.format === 'date-time') return { field: base || '(root)', message: DATE_TIME_MESSAGE };
      return { field: base || '(root)', message: error.message ?? 'is invalid' };
    default:
      return { field: base || '(root)', message: error.message ?? 'is invalid' };
  }
}

/** One detail per failing field: the first problem found for each. */
export function detailsFromAjv(errors: ErrorObject[], prefix?: string): ErrorDetail[] {
  const byField = new Map<string, ErrorDetail>();
  for (const error of errors) {
    // anyOf/oneOf repeat their branches' errors; the branch errors name the field better.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const detail = describe(error);
    if (prefix && prefix !== 'body' && detail.field === '(root)') detail.field = prefix;
    if (!byField.has(detail.field)) byField.set(detail.field, detail);
  }
  return [...byField.values()];
}

/**
 * A route's checks beyond its body schema (references, currency, salary range, URL rules), as the
 * service runs them. When the schema fails they still run, on the fields that passed it, so one
 * 422 names every failing field and a client fixes its request in one round trip.
 */
export type BodyChecks = (body: Record<string, unknown>) => Promise<ErrorDetail[]>;

declare module 'fastify' {
  interface FastifyContextConfig {
    bodyChecks?: BodyChecks;
  }
}

/** "jobListingTags[0].tagId" -> "jobListingTags" */
function topField(field: string): string {
  return field.split(/[.[]/, 1)[0] ?? field;
}

/**
 * The schema's details, then the body checks' for the fields the schema did not refuse (a field
 * refused in any part is left out whole: its value is not what the checks expect). One entry per
 * field, the schema's first.
 */
export async function withBodyChecks(schemaDetails: ErrorDetail[], body: unknown, checks: BodyChecks): Promise<ErrorDetail[]> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return schemaDetails;
  const refused = new Set(schemaDetails.map((detail) => topField(detail.field)));
  if (refused.has('(root)')) return schemaDetails;
  const passed = Object.fromEntries(Object.entries(body).filter(([name]) => !refused.has(name)));
  const named = new Set(schemaDetails.map((detail) => detail.field));
  const more = (await checks(passed)).filter((detail) => !named.has(detail.field) && !refused.has(topField(detail.field)));
  return [...schemaDetails, ...more];
}
