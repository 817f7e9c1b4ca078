// The driver adapter's contract (src/db/driver.ts): a value written through queryStatement and read
// back through it is the same JavaScript value on PGlite and on PostgreSQL, and a table's columns
// read with its select list (src/db/select-list.ts) equal what Drizzle's own select answers. Runs
// on PGlite always, and on PostgreSQL as well when DATABASE_URL is set (then the two engines'
// answers are compared with each other, row by row).
import { eq } from 'drizzle-orm';
import { bigint, boolean, date, doublePrecision, integer, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryStatement, type Database } from '../../src/db/client.ts';
import { selectList } from '../../src/db/select-list.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-app.ts';

const sample = pgTable('driver_contract', {
  id: integer('id').primaryKey(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  amount: numeric('amount'),
  amountNumber: numeric('amount_number', { mode: 'number' }),
  count: bigint('count', { mode: 'number' }),
  label: text('label'),
  flag: boolean('flag'),
  ref: uuid('ref'),
  tags: text('tags').array(),
  doc: jsonb('doc'),
  day: date('day', { mode: 'string' }),
  size: integer('size'),
  ratio: doublePrecision('ratio'),
});

const CREATE = `create table driver_contract (
  id int4 primary key, at timestamptz, amount numeric, amount_number numeric, count int8, label text, flag boolean,
  ref uuid, tags text[], doc jsonb, day date, size int4, ratio float8)`;
const COLUMNS = 'id, at, amount, amount_number, count, label, flag, ref, tags, doc, day, size, ratio';
// As a repo writes them: each value a parameter, a timestamp as its text (microseconds and all), a
// document as its JSON text.
const INSERT = `insert into driver_contract (${COLUMNS}) values ($1, $2::timestamptz, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)`;
const READ_RAW = `select ${COLUMNS} from driver_contract where id = $1`;
const READ_LISTED = `select ${selectList(sample)} from driver_contract where id = $1`;

const orNull = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null, freq: 5 });
// PostgreSQL's text holds no NUL, and no lone surrogate (it is UTF-8).
const unicode = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
const microseconds = fc.bigInt({ min: -47_000_000_000_000_000n, max: 253_402_300_799_999_999n }); // years 0481 to 9999
const decimal = fc
  .tuple(fc.bigInt({ min: -(10n ** 24n), max: 10n ** 24n }), fc.nat({ max: 8 }))
  .map(([digits, scale]) => {
    const text = (digits < 0n ? -digits : digits).toString().padStart(scale + 1, '0');
    const whole = `${text.slice(0, text.length - scale)}${scale > 0 ? `.${text.slice(-scale)}` : ''}`;
    return digits < 0n ? `-${whole}` : whole;
  });
const row = fc.record({
  at: orNull(microseconds),
  amount: orNull(decimal),
  amountNumber: orNull(decimal),
  count: orNull(fc.integer({ min: -(2 ** 31), max: 2 ** 31 })),
  label: orNull(unicode),
  flag: orNull(fc.boolean()),
  ref: orNull(fc.uuid()),
  tags: orNull(fc.array(orNull(unicode), { maxLength: 4 })),
  doc: orNull(fc.jsonValue({ maxDepth: 2, stringUnit: 'grapheme' }).filter((value) => !JSON.stringify(value).includes('\\u0000'))),
  day: orNull(fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true })),
  size: orNull(fc.integer()),
  ratio: orNull(fc.double().filter((value) => !Object.is(value, -0))),
});
type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;

/** A timestamptz's text with every digit of its microseconds. */
function timestampText(us: bigint): string {
  const iso = new Date(Number(us / 1000n) - (us % 1000n < 0n ? 1 : 0)).toISOString();
  const micros = String(((us % 1000n) + 1000n) % 1000n).padStart(3, '0');
  return `${iso.slice(0, 23)}${micros}Z`;
}

function parameters(id: number, value: Row): unknown[] {
  return [
    id,
    value.at === null ? null : timestampText(value.at),
    value.amount,
    value.amountNumber,
    value.count,
    value.label,
    value.flag,
    value.ref,
    value.tags,
    value.doc === null ? null : JSON.stringify(value.doc),
    value.day === null ? null : value.day.toISOString().slice(0, 10),
    value.size,
    value.ratio,
  ];
}

/** What the raw columns read back as, on both engines (src/db/values.ts). */
function expectedRaw(id: number, value: Row): Record<string, unknown> {
  const floorDiv = (us: bigint) => (us - (((us % 1000n) + 1000n) % 1000n)) / 1000n;
  return {
    id,
    at: value.at === null ? null : new Date(Number(floorDiv(value.at))),
    amount: value.amount === null ? null : canonicalDecimal(value.amount),
    amount_number: value.amountNumber === null ? null : canonicalDecimal(value.amountNumber),
    count: value.count === null ? null : String(value.count),
    label: value.label,
    flag: value.flag,
    ref: value.ref?.toLowerCase() ?? null,
    tags: value.tags,
    doc: value.doc === null ? null : JSON.parse(JSON.stringify(value.doc)),
    day: value.day === null ? null : value.day.toISOString().slice(0, 10),
    size: value.size,
    ratio: value.ratio,
  };
}

/** PostgreSQL writes a numeric as given, but zero without a sign. */
const canonicalDecimal = (text: string) => (/^-0(\.0*)?$/.test(text) ? text.slice(1) : text);

/** A JSON document's keys sorted: jsonb keeps its own order of keys. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

const comparable = (answer: Record<string, unknown> | undefined) => answer && { ...answer, doc: sortedKeys(answer.doc) };

interface Engine {
  name: string;
  database: Database;
}

const engines: Engine[] = [];
let testDb: TestDatabase;
let embedded: Database | undefined;
beforeAll(async () => {
  testDb = await openTestDatabase();
  engines.push({ name: testDb.database.kind, database: testDb.database });
  // On PostgreSQL, PGlite beside it with the same values.
  if (testDb.database.kind === 'postgres') engines.push({ name: 'embedded', database: (embedded = await openDatabase({})) });
  for (const { database } of engines) await queryStatement(database.db, CREATE, []);
});
afterAll(async () => {
  await embedded?.close();
  await testDb?.drop();
});

describe('the driver adapter', () => {
  it('reads back what it wrote as the same values on every engine, and as Drizzle reads them', async () => {
    let id = 0;
    await fc.assert(
      fc.asyncProperty(row, async (value) => {
        id++;
        const answers: Array<Record<string, unknown> | undefined> = [];
        for (const { name, database } of engines) {
          const { db } = database;
          await queryStatement(db, INSERT, parameters(id, value));
          const [raw] = await queryStatement<Record<string, unknown>>(db, READ_RAW, [id]);
          expect(comparable(raw), name).toEqual(comparable(expectedRaw(id, value)));
          // And answered (JSON) as the instant it is.
          expect(JSON.stringify(raw?.at), name).toBe(JSON.stringify(expectedRaw(id, value).at));
          const [listed] = await queryStatement<Record<string, unknown>>(db, READ_LISTED, [id]);
          const [drizzled] = await db.select().from(sample).where(eq(sample.id, id));
          // int8 answers its text (no JavaScript number holds every one); Drizzle's column mode
          // makes a number of it.
          expect(comparable({ ...listed, count: listed?.count === null ? null : Number(listed?.count) }), name).toEqual(comparable(drizzled));
          answers.push(raw);
        }
        // The engines' answers with each other: the same values, key order of documents aside.
        for (const answer of answers.slice(1)) expect(comparable(answer)).toEqual(comparable(answers[0]));
      }),
      { numRuns: 40 },
    );
  });

  it('answers a row as the array of its values in select-list order when asked (`arrays`), inside a transaction too', async () => {
    const value = { at: 1_700_000_000_654_321n, amount: '-1.5', amountNumber: null, count: 9, label: 'Ünïcode', flag: false, ref: null, tags: [], doc: [1, { a: null }], day: null, size: -3, ratio: 2.25 };
    for (const { name, database } of engines) {
      const { db } = database;
      await queryStatement(db, INSERT, parameters(200_000, value));
      const [object] = await queryStatement<Record<string, unknown>>(db, READ_RAW, [200_000]);
      const [array] = await queryStatement<unknown[]>(db, READ_RAW, [200_000], { arrays: true });
      expect(array, name).toEqual(COLUMNS.split(', ').map((column) => object?.[column]));
      expect(array, name).toEqual(Object.values(expectedRaw(200_000, value)));
      const inside = await db.transaction((tx) => queryStatement<unknown[]>(tx, READ_RAW, [200_000], { arrays: true }));
      expect(inside, name).toEqual([array]);
      // The same statement as objects again afterwards (PostgreSQL prepares each text once per connection).
      expect(await queryStatement(db, READ_RAW, [200_000]), name).toEqual([object]);
    }
  });

  it('answers the same inside a transaction as outside, on its connection', async () => {
    for (const { name, database } of engines) {
      const { db } = database;
      const value = { at: 1_700_000_000_123_456n, amount: '12.50', amountNumber: '3.25', count: 7, label: 'Zoë ✓', flag: true, ref: null, tags: ['a', null], doc: { b: [1] }, day: null, size: 3, ratio: 0.5 };
      const inside = await db.transaction(async (tx) => {
        await queryStatement(tx, INSERT, parameters(100_000, value));
        return queryStatement<Record<string, unknown>>(tx, READ_RAW, [100_000]);
      });
      expect(inside, name).toEqual(await queryStatement(db, READ_RAW, [100_000]));
      expect(inside[0], name).toEqual(expectedRaw(100_000, value));
    }
  });
});
