// Values from the OpenAPI document's JSON schemas, as fast-check arbitraries: valid values (what
// the schema allows, leaning on the caller's real ids and boundary lengths), and mutations of
// them (wrong types, missing required fields, unknown fields, hostile strings and numbers, deep
// nesting). No maintained library turns JSON Schema into fast-check arbitraries (the one on npm is
// built on fast-check 1 and faker 4), and the document uses a small subset of keywords, so this is
// a small generator of our own.
import fc from 'fast-check';

export type Schema = Record<string, unknown>;

export interface GenContext {
  /** Resolves a `$ref` to `#/components/schemas/X`. */
  resolve(ref: string): Schema;
  /** Real ids to use for a field or parameter of this name (jobListingId, sectorId...), if any. */
  idsFor(name: string | undefined): string[] | undefined;
  /** Real e-mail addresses (so some imports and applications match existing candidates). */
  emails: string[];
}

const LONG_TEXT_CAP = 40;
const ARRAY_CAP = 4;

// Printable text with some non-ASCII (accents, CJK, emoji, right-to-left, zero-width space).
const textUnit = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }).filter((c) => c >= ' ' && c !== '\x7f') },
  { weight: 1, arbitrary: fc.constantFrom('é', 'ß', '中', '😀', 'ي', 'ǅ', '\u200b', 'Ω', 'ñ') },
);

function text(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const max = Math.min(maxLength, Math.max(minLength, LONG_TEXT_CAP));
  const plain = fc.string({ unit: textUnit, minLength, maxLength: max }).filter((s) => [...s].length >= minLength);
  if (!Number.isFinite(maxLength) || maxLength <= LONG_TEXT_CAP) return plain;
  // Exactly at the limit now and then: boundaries are where off-by-one errors live.
  return fc.oneof({ weight: 9, arbitrary: plain }, { weight: 1, arbitrary: fc.constant('x'.repeat(maxLength)) });
}

const isoDate = (from: string, to: string) =>
  fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true }).map((d) => d.toISOString());

const LANGUAGE_TAGS = ['en', 'de', 'fr', 'es', 'pt-BR', 'de-CH', 'zh-Hant-TW', 'sr-Latn', 'en-US'];
const COUNTRIES = ['DE', 'US', 'FR', 'GB', 'CH', 'BR', 'JP'];

function stringArb(schema: Schema, ctx: GenContext, name: string | undefined): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = (schema.maxLength as number | undefined) ?? Infinity;
  switch (schema.format) {
    case 'uuid': {
      const ids = ctx.idsFor(name);
      return ids && ids.length > 0
        ? fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...ids) }, { weight: 1, arbitrary: fc.uuid() })
        : fc.uuid();
    }
    case 'email':
      return fc.oneof(
        fc.constantFrom(...(ctx.emails.length > 0 ? ctx.emails : ['ada@example.com'])),
        fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/).map((local) => `${local}@example.com`),
      );
    case 'uri':
      return fc.oneof(
        fc.constantFrom('https://example.com/profile', 'https://www.linkedin.com/in/ada', 'http://127.0.0.1:9/hook'),
        fc.stringMatching(/^[a-z0-9]{1,12}$/).map((segment) => `https://example.com/${segment}`),
      );
    case 'date-time':
      return isoDate('2000-01-01T00:00:00Z', '2099-12-31T23:59:59Z');
    case 'date':
      return isoDate('2000-01-01T00:00:00Z', '2099-12-31T23:59:59Z').map((s) => s.slice(0, 10));
  }
  if (typeof schema.pattern === 'string') {
    if (schema.pattern === '^[A-Z]{2}$') return fc.oneof(fc.constantFrom(...COUNTRIES), fc.stringMatching(/^[A-Z]{2}$/));
    const matching = fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= minLength && s.length <= maxLength);
    if (schema.pattern.startsWith('^[A-Za-z]{2,3}')) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...LANGUAGE_TAGS) }, { weight: 1, arbitrary: matching });
    return matching;
  }
  // Webhook addresses: the test server allows local addresses, and a closed local port fails fast.
  if (name === 'url') return fc.constantFrom('http://127.0.0.1:9/hook', 'http://localhost:9/events', 'https://127.0.0.1:9/x');
  if (name === 'language') return fc.constantFrom(...LANGUAGE_TAGS);
  if (name === 'currency') return fc.constantFrom('EUR', 'USD', 'GBP', 'CHF', 'JPY');
  return text(minLength, maxLength);
}

function numberArb(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = (schema.minimum as number | undefined) ?? (schema.exclusiveMinimum as number | undefined) ?? -1_000_000;
  const max = (schema.maximum as number | undefined) ?? (schema.exclusiveMaximum as number | undefined) ?? 1_000_000;
  // Mostly small values near the lower bound (pages, sizes, years of experience), sometimes the bounds.
  const low = Math.max(min, Math.min(max, 0));
  const high = Math.min(max, low + 200);
  const ranged = integer
    ? fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const near = integer ? fc.integer({ min: low, max: high }) : fc.double({ min: low, max: high, noNaN: true });
  return fc.oneof({ weight: 6, arbitrary: near }, { weight: 2, arbitrary: ranged }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
}

/** A value the schema accepts. */
export function validValue(schema: Schema, ctx: GenContext, name?: string): fc.Arbitrary<unknown> {
  if (typeof schema.$ref === 'string') return validValue(ctx.resolve(schema.$ref), ctx, name);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf)) {
    const branches = (schema.anyOf ?? schema.oneOf) as Schema[];
    return fc.oneof(...branches.map((branch) => validValue(branch, ctx, name)));
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : (schema.type as string | undefined);
  switch (type) {
    case 'string':
      return stringArb(schema, ctx, name);
    case 'integer':
      return numberArb(schema, true);
    case 'number':
      return numberArb(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = validValue((schema.items as Schema | undefined) ?? {}, ctx, name);
      const minLength = (schema.minItems as number | undefined) ?? 0;
      const maxLength = Math.min((schema.maxItems as number | undefined) ?? ARRAY_CAP, Math.max(minLength, ARRAY_CAP));
      return fc.array(items, { minLength, maxLength });
    }
    case 'object':
    case undefined: {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
      if (type === undefined && Object.keys(properties).length === 0) return fc.jsonValue({ maxDepth: 2 });
      const required = (schema.required as string[] | undefined) ?? [];
      const model = Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, validValue(sub, ctx, key)]));
      const minProperties = (schema.minProperties as number | undefined) ?? 0;
      return fc
        .record(model, { requiredKeys: required.filter((key) => key in properties) })
        .filter((value) => Object.keys(value).length >= minProperties) as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---------------------------------------------------------------------------------------------
// Mutations: what a careless client or an attacker sends instead.

/** Strings that have broken servers: NUL, lone surrogates, odd dates, number-ish text, huge text. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'a\u0000b',
    '\u0000',
    '\ud800',
    'x\udfffy',
    '\ud83d',
    '0000-01-01',
    '0000-01-01T00:00:00Z',
    '2024-12-31T23:59:60Z',
    '2024-02-30',
    '9999-12-31',
    '9999-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00Z',
    '1900-01-01',
    '2024-01-01T00:00:00+25:00',
    '0x10',
    '1e3',
    '-1',
    '1.5',
    '-0',
    'NaN',
    'Infinity',
    '99999999999999999999999',
    '９',
    'javascript:alert(1)',
    "'; drop table job_listings; --",
    '%00',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '\u202e\u0645\u0631\u062d\u0628\u0627',
    'Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f',
    'true',
    'null',
    '{}',
    'ZZ',
    'XX',
    'a'.repeat(600),
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer({ min: 1_000, max: 70_000 }).map((n) => 'é'.repeat(n)),
);

/** Numbers at and past the edges: overflow, fractions where integers are wanted, negative zero. */
export const hostileNumber: fc.Arbitrary<number> = fc.constantFrom(
  -1,
  0,
  1.5,
  -0.000001,
  2 ** 31,
  2 ** 53 + 1,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
  9_000_000_000_001,
);

const ODD_DATES = ['0000-01-01', '0001-01-01', '1899-12-31', '3000-01-01', '9999-12-31', '2024-02-30', '2024-13-01', '2023-02-29', '+275760-09-13', '-000001-01-01'];
const ODD_DATE_TIMES = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00Z',
  '2024-12-31T23:59:60Z',
  '2024-01-01T24:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '2024-01-01T00:00:00+25:00',
  '1969-12-31T23:59:59Z',
  '2024-01-01t00:00:00z',
];
const NUMBER_TEXT = ['0x10', '1e3', '1.0', '-0', '+1', ' 1', '1 ', '١', '00', '9007199254740993', '1_000', 'Infinity'];
const TEXT_BREAKERS = ['a\u0000b', '\u0000', '\ud800', 'x\udfffy', '\ud83d', 'é\u0000'];

/** Values just outside what this schema accepts, chosen by its type and format. */
export function hostileFor(schema: Schema): fc.Arbitrary<unknown> {
  const specific: string[] = [...TEXT_BREAKERS];
  if (schema.format === 'date') specific.push(...ODD_DATES);
  if (schema.format === 'date-time') specific.push(...ODD_DATE_TIMES);
  if (schema.format === 'uuid') specific.push('00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF', '{6f1c0a9e-1d2b-4c3d-8e4f-5a6b7c8d9e0f}', '6f1c0a9e1d2b4c3d8e4f5a6b7c8d9e0f', 'not-a-uuid');
  if (schema.type === 'integer' || schema.type === 'number') specific.push(...NUMBER_TEXT);
  return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...specific) }, { weight: 1, arbitrary: wrongValue });
}

function looksLikeDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}/.test(value);
}

/** A value in place of a leaf of the same JS type, but outside what servers usually expect. */
function hostileLeaf(leaf: unknown): fc.Arbitrary<unknown> {
  if (typeof leaf === 'string') {
    if (looksLikeDate(leaf)) return fc.constantFrom(...(leaf.length > 10 ? ODD_DATE_TIMES : ODD_DATES));
    return fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...TEXT_BREAKERS).map((breaker) => `${leaf}${breaker}`) },
      { weight: 1, arbitrary: hostileString },
    );
  }
  if (typeof leaf === 'number') return hostileNumber;
  return wrongValue;
}

function nested(depth: number, leaf: unknown, asArray: boolean): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Something of another type than the schema wants. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, [], {}, [null], { '': '' }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(40, 200, 1_000), fc.boolean())
      .map(([depth, asArray]) => nested(depth, 1, asArray)),
  },
);

type Path = Array<string | number>;

function paths(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  out.push(prefix);
  if (Array.isArray(value)) value.slice(0, 20).forEach((item, i) => paths(item, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) paths((value as Record<string, unknown>)[key], [...prefix, key], out);
  return out;
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** A copy of value with the node at path replaced (or, with `remove`, deleted). */
function setAt(value: unknown, path: Path, replacement: unknown, remove = false): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    if (rest.length === 0 && remove) copy.splice(head as number, 1);
    else copy[head as number] = setAt(copy[head as number], rest, replacement, remove);
    return copy;
  }
  const copy = { ...(value as Record<string, unknown>) };
  if (rest.length === 0 && remove) delete copy[head as string];
  else copy[head as string] = setAt(copy[head as string], rest, replacement, remove);
  return copy;
}

const UNKNOWN_KEYS = ['extra', 'Position', 'id', 'companyId', 'status', 'createdAt', '', ' ', 'constructor', 'toString', 'x'.repeat(300)];

/** One mutation of a valid value: a node of the wrong type, a key removed, an unknown key, or a repeated array. */
export function mutate(value: unknown): fc.Arbitrary<{ value: unknown; mutation: string }> {
  const all = paths(value);
  const objects = all.filter((path) => {
    const node = getAt(value, path);
    return node !== null && typeof node === 'object' && !Array.isArray(node);
  });
  const keyed = all.filter((path) => path.length > 0);
  const arrays = all.filter((path) => Array.isArray(getAt(value, path)));
  const leaves = all.filter((path) => {
    const node = getAt(value, path);
    return node === null || typeof node !== 'object';
  });
  const options: Array<fc.Arbitrary<{ value: unknown; mutation: string }>> = [
    fc.tuple(fc.constantFrom(...all), wrongValue).map(([path, wrong]) => ({ value: setAt(value, path, wrong), mutation: `wrong value at ${path.join('.') || '(root)'}` })),
  ];
  // Free-text leaves first: that is where NUL bytes, lone surrogates and odd dates get through.
  const textLeaves = leaves.filter((path) => typeof getAt(value, path) === 'string');
  if (leaves.length > 0) {
    const pick = textLeaves.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...textLeaves) }, { weight: 1, arbitrary: fc.constantFrom(...leaves) }) : fc.constantFrom(...leaves);
    const hostile = pick.chain((path) =>
      hostileLeaf(getAt(value, path)).map((leaf) => ({ value: setAt(value, path, leaf), mutation: `hostile ${JSON.stringify(leaf)?.slice(0, 40)} at ${path.join('.') || '(root)'}` })),
    );
    options.push(hostile, hostile, hostile, hostile);
  }
  if (keyed.length > 0) {
    options.push(fc.constantFrom(...keyed).map((path) => ({ value: setAt(value, path, undefined, true), mutation: `removed ${path.join('.')}` })));
  }
  if (objects.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...objects), fc.constantFrom(...UNKNOWN_KEYS), fc.jsonValue({ maxDepth: 1 })).map(([path, key, extra]) => ({
        value: setAt(value, path, { ...(getAt(value, path) as object), [key]: extra }),
        mutation: `unknown field ${JSON.stringify(key.slice(0, 20))} at ${path.join('.') || '(root)'}`,
      })),
    );
  }
  if (arrays.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...arrays), fc.constantFrom(11, 51, 101, 1_001, 5_000)).map(([path, times]) => {
        const array = getAt(value, path) as unknown[];
        const item = array.length > 0 ? array[0] : 'x';
        return { value: setAt(value, path, Array.from({ length: times }, () => item)), mutation: `array ${path.join('.') || '(root)'} x${times}` };
      }),
    );
  }
  return fc.oneof(...options);
}

/** The smallest valid value: required properties only (so one mutation is the only thing wrong). */
function minimalValue(schema: Schema, ctx: GenContext): fc.Arbitrary<unknown> {
  const resolved = typeof schema.$ref === 'string' ? ctx.resolve(schema.$ref) : schema;
  const properties = (resolved.properties as Record<string, Schema> | undefined) ?? {};
  const required = ((resolved.required as string[] | undefined) ?? []).filter((key) => key in properties);
  if (resolved.type !== 'object' || required.length === 0) return validValue(resolved, ctx);
  return fc.record(Object.fromEntries(required.map((key) => [key, validValue(properties[key], ctx, key)])));
}

/** A valid value, or a mutated one (about half each); mutations start from a full or a minimal value. */
export function fuzzValue(schema: Schema, ctx: GenContext, name?: string): fc.Arbitrary<{ value: unknown; mutation: string }> {
  return fc.oneof(validValue(schema, ctx, name), minimalValue(schema, ctx)).chain((value) =>
    fc.oneof({ weight: 1, arbitrary: fc.constant({ value, mutation: 'valid' }) }, { weight: 1, arbitrary: mutate(value) }),
  );
}
