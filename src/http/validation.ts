// Request validation. Two Ajv instances: query strings, params and headers arrive as text and are
// coerced ("?size=5" is the number 5); JSON bodies are not coerced, so "salaryBase": "100" is a
// 422 rather than a silent guess. allErrors gives one `details` entry per failing field, and
// unknown body fields are rejected rather than silently dropped.
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../shared/errors.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

/** A validator compiler that knows the app's shared schemas (those referenced by $ref). */
export function buildValidatorCompiler(sharedSchemas: object[]): FastifySchemaCompiler<unknown> {
  const bodyAjv = makeAjv(false);
  const textAjv = makeAjv('array');
  for (const schema of sharedSchemas) {
    bodyAjv.addSchema(schema);
    textAjv.addSchema(schema);
  }
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
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
    case 'enum':
      return {
        field: base || '(root)',
        message: `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`,
      };
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
