// The fixed statements of a list page. A page has a shape (which of its optional filters it has,
// its ordering, whether it starts after a cursor); each shape is one statement text, built from
// tables.ts the first time a page of that shape runs and kept by its PageStatements, prepared once
// per connection (src/db/statements.ts), its values bound by placeholder name when a page runs.
// Built on first use rather than all at load: every optional filter doubles the shapes a page can
// have, and a process only ever runs the few its callers ask for.
import { fillPlaceholders, sql, type Placeholder, type SQL } from 'drizzle-orm';
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

export class PageStatements<Shape, Values> {
  /**
   * The statements built so far, by shape key. A cache of what `build` answers (the same text for
   * the same shape, whenever it is built), so sharing it across requests shares no state.
   */
  private readonly byKey = new Map<string, { text: string; params: unknown[] }>();
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

  /** The shape's statement text and its parameters, the placeholders bound to `values`. */
  bind(shape: Shape, values: Partial<Values>): { text: string; values: unknown[] } {
    const key = this.keyOf(shape);
    let statement = this.byKey.get(key);
    if (statement === undefined) {
      const { sql: text, params } = this.dialect.sqlToQuery(this.build(shape));
      statement = { text, params };
      this.byKey.set(key, statement);
    }
    return { text: statement.text, values: fillPlaceholders(statement.params, values as Record<string, unknown>) };
  }
}
