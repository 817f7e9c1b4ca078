// How a fixed statement's (queryStatement) answer becomes JavaScript values, the same on both
// engines: pg and PGlite each parse by type OID, with defaults that differ (int8 is a string on pg
// and a number on PGlite, arrays and dates each their own way), so both are given this one table.
// Types not in it keep the driver's default (text for everything the app reads that way).
import { types as pglite } from '@electric-sql/pglite';
import pg from 'pg';

export type Parser = (text: string) => unknown;

const asText: Parser = (text) => text;
const asNumber: Parser = Number;
// PostgreSQL writes a boolean as 't' or 'f'.
const asBoolean: Parser = (text) => text === 't';
const asJson: Parser = (text) => JSON.parse(text) as unknown;

const postgresDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

/**
 * A Date read from PostgreSQL's UTC text that keeps the text it was read from: answering it
 * (toISOString, and so JSON) rewrites that text rather than formatting the date again, which cost
 * ~0.5 us a value, 20 to 40 values a list page. Changed afterwards (setTime...), it formats as any
 * Date does.
 */
class UtcTimestamp extends Date {
  readonly #time: number;
  readonly #text: string;
  constructor(time: number, text: string) {
    super(time);
    this.#time = time;
    this.#text = text;
  }
  override toISOString(): string {
    if (this.getTime() !== this.#time) return super.toISOString();
    const text = this.#text;
    const n = text.length;
    // '2026-11-23 17:52:51.775697+00' -> '2026-11-23T17:52:51.775Z': the time and its milliseconds
    // in one piece (a list page writes dozens of these).
    if (n >= 26) return `${text.slice(0, 10)}T${text.slice(11, 23)}Z`;
    // '.7+00' -> '.700', no fraction -> '.000'
    const fraction = n > 22 ? text.slice(19, n - 3).padEnd(4, '0') : '.000';
    return `${text.slice(0, 10)}T${text.slice(11, 19)}${fraction}Z`;
  }
}

/** The number written by the two digits at `i`. */
const twoDigits = (text: string, i: number) => (text.charCodeAt(i) - 48) * 10 + text.charCodeAt(i + 1) - 48;

/**
 * A timestamptz as PostgreSQL writes it in UTC ('2026-11-23 17:52:51.775697+00'), read without a
 * regular expression or a string per field: a list page has dozens. The same instant as pg's own
 * parser (milliseconds truncated), as a UtcTimestamp; any other form (another zone, BC, years before
 * 1000, infinity) goes to pg's parser.
 */
export function parseTimestamptz(text: string): Date {
  const n = text.length;
  if (n < 22 || text.charCodeAt(10) !== 32 || text.charCodeAt(0) === 48 || !text.endsWith('+00') || (n > 22 && text.charCodeAt(19) !== 46)) {
    return postgresDate(text);
  }
  let milliseconds = 0;
  for (let i = 20, scale = 100; i < 23 && i < n - 3; i++, scale /= 10) milliseconds += (text.charCodeAt(i) - 48) * scale;
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  return new UtcTimestamp(Date.UTC(year, twoDigits(text, 5) - 1, twoDigits(text, 8), twoDigits(text, 11), twoDigits(text, 14), twoDigits(text, 17), milliseconds), text);
}

/** Element types, by OID, with the OID of their array type. */
const ELEMENTS: Array<[oid: number, arrayOid: number, parse: Parser]> = [
  [16, 1000, asBoolean], // bool
  [21, 1005, asNumber], // int2
  [23, 1007, asNumber], // int4
  [26, 1028, asNumber], // oid
  [700, 1021, asNumber], // float4
  [701, 1022, asNumber], // float8
  // int8 and numeric as their decimal text: no JavaScript number holds every value (Drizzle's
  // column modes, or a cast in the statement (select-list.ts), make numbers of them).
  [20, 1016, asText], // int8
  [1700, 1231, asText], // numeric
  // date and timestamp without zone as text: a Date would put them in the process's zone.
  [1082, 1182, asText], // date
  [1114, 1115, asText], // timestamp
  [1184, 1185, parseTimestamptz], // timestamptz
  [114, 199, asJson], // json
  [3802, 3807, asJson], // jsonb
  [25, 1009, asText], // text
  [1043, 1015, asText], // varchar
  [1042, 1014, asText], // bpchar
  [2950, 2951, asText], // uuid
];

/** Every parser of the table, by type OID (arrays: `{a,b}` to an array of their elements' values). */
export const VALUE_PARSERS: Readonly<Record<number, Parser>> = Object.fromEntries(
  ELEMENTS.flatMap(([oid, arrayOid, parse]) => [
    [oid, parse],
    [arrayOid, (text: string) => pglite.arrayParser(text, parse, arrayOid) as unknown],
  ]),
);
