// The fixed statements of a list page (and of other reads built the same way, such as the
// overview's kept figures, src/infra/kept-counts/read.ts). A page has a shape (which of its
// optional filters it has, its ordering, whether it starts after a cursor); each shape is one
// statement text, built from tables.ts the first time a page of that shape runs and kept by its
// PageStatements, prepared once per connection (src/db/statements.ts), its values bound by
// placeholder name when a page runs.
// Built on first use rather than all at load: every optional filter doubles the shapes a page can
// have, and a process only ever runs the few its callers ask for.
import { is, Param, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A named placeholder, its name checked against the values the statements bind. */
export const placeholderOf =
  <Values>() =>
  (name: keyof Values & string): Placeholder =>
    sql.placeholder(name);

/** A shape's key from its flags, for shapes made of flags alone. */
export const flagsKey =
  <Flag extends string>(flags: readonly Flag[]) =>
  (shape: Record<Flag, boolean>): string =>
    flags.map((flag) => (shape[flag] ? '1' : '0')).join('');

/**
 * One parameter of a built statement: a placeholder's name (its value bound by name, through its
 * column's encoder when Drizzle gave it one) or a value fixed in the text.
 */
type Slot = { name: string; encode: ((value: unknown) => unknown) | undefined } | { fixed: unknown };

function slotOf(param: unknown): Slot {
  if (is(param, Placeholder)) return { name: param.name, encode: undefined };
  if (is(param, Param) && is(param.value, Placeholder)) {
    const encoder = param.encoder;
    return { name: param.value.name, encode: (value) => encoder.mapToDriverValue(value) };
  }
  return { fixed: param };
}

export class PageStatements<Shape, Values> {
  /**
   * The statements built so far, by shape key. A cache of what `build` answers (the same text for
   * the same shape, whenever it is built), so sharing it across requests shares no state.
   */
  private readonly byKey = new Map<string, { text: string; slots: Slot[] }>();
  private readonly dialect = new PgDialect();
  private readonly keyOf: (shape: Shape) => string;
  private readonly build: (shape: Shape) => SQL;

  /**
   * `keyOf` names a shape (the same key for the same statement); `build` makes its statement,
   * and throws for a shape the page never runs.
   */
  constructor(keyOf: (shape: Shape) => string, build: (shape: Shape) => SQL) {
    this.keyOf = keyOf;
    this.build = build;
  }

  /**
   * The shape's statement text and its parameters, the placeholders bound to `values`. Each
   * parameter's placeholder is found once, when the shape is built: Drizzle's fillPlaceholders
   * asks every parameter what it is on every bind (~10,000 instructions a page, callgrind).
   */
  bind(shape: Shape, values: Partial<Values>): { text: string; values: unknown[] } {
    const key = this.keyOf(shape);
    let statement = this.byKey.get(key);
    if (statement === undefined) {
      const { sql: text, params } = this.dialect.sqlToQuery(this.build(shape));
      statement = { text, slots: params.map(slotOf) };
      this.byKey.set(key, statement);
    }
    const named = values as Record<string, unknown>;
    const bound = statement.slots.map((slot) => {
      if ('fixed' in slot) return slot.fixed;
      if (!(slot.name in named)) throw new Error(`No value for placeholder "${slot.name}" was provided`);
      const value = named[slot.name];
      return slot.encode === undefined ? value : slot.encode(value);
    });
    return { text: statement.text, values: bound };
  }
}
