import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz, VALUE_PARSERS } from './values.ts';

const pgTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;

/** A timestamptz as PostgreSQL writes it in UTC: microseconds, trailing zeros of the fraction dropped. */
function postgresText(microseconds: bigint): string {
  const milliseconds = Number(microseconds / 1000n);
  const iso = new Date(milliseconds).toISOString(); // 2026-01-02T03:04:05.123Z
  const fraction = `${iso.slice(20, 23)}${String(microseconds % 1000n).padStart(3, '0')}`.replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}

describe('parseTimestamptz', () => {
  it("reads every UTC timestamptz PostgreSQL writes as pg's own parser does", () => {
    // Years 0001 to 9999, with every precision of the fraction.
    const micros = fc.bigInt({ min: -62135596800000000n, max: 253402300799999999n });
    fc.assert(
      fc.property(micros, (us) => {
        const text = postgresText(us);
        const read = parseTimestamptz(text);
        expect(read.getTime(), text).toBe(pgTimestamptz(text).getTime());
        // Answered as any Date would be, before and after a change.
        expect(read.toISOString(), text).toBe(pgTimestamptz(text).toISOString());
        expect(JSON.stringify({ read }), text).toBe(JSON.stringify({ read: pgTimestamptz(text) }));
        read.setTime(read.getTime() + 1);
        expect(read.toISOString(), text).toBe(new Date(pgTimestamptz(text).getTime() + 1).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it("hands every other form to pg's parser", () => {
    for (const text of ['2026-01-02 03:04:05.5+02', '2026-01-02 03:04:05-07:30', '0999-05-06 07:08:09+00', 'infinity', '0044-03-15 12:00:00+00 BC']) {
      expect(parseTimestamptz(text)).toEqual(pgTimestamptz(text));
    }
  });
});

describe('VALUE_PARSERS', () => {
  it('reads arrays element by element, nulls, quotes and empty arrays included', () => {
    expect(VALUE_PARSERS[1009]!('{a,"b,c","d\\"e",NULL,"NULL",""}')).toEqual(['a', 'b,c', 'd"e', null, 'NULL', '']);
    expect(VALUE_PARSERS[1007]!('{}')).toEqual([]);
    expect(VALUE_PARSERS[1016]!('{9007199254740993,-1}')).toEqual(['9007199254740993', '-1']);
    expect(VALUE_PARSERS[1185]!('{"2026-01-02 03:04:05.1+00",NULL}')).toEqual([new Date('2026-01-02T03:04:05.100Z'), null]);
    expect(VALUE_PARSERS[3807]!('{"{\\"a\\": [1]}"}')).toEqual([{ a: [1] }]);
  });
});
