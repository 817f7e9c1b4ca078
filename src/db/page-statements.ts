// The fixed statements of a list page. A page has a shape (which of its optional filters it has,
// its ordering, whether it starts after a cursor); each shape is one statement text, built once from
// tables.ts when the module loads and prepared once per connection (src/db/statements.ts), its
// values bound by placeholder name when a page runs.
import { fillPlaceholders, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/** A named placeholder, its name checked against the values the statements bind. */
export const placeholderOf =
  <Values>() =>
  (name: keyof Values & string): Placeholder =>
    sql.placeholder(name);

/** Every combination of the flags: the shapes of a page whose optional parts are independent. */
export function everyShape<Flag extends string>(flags: readonly Flag[]): Array<Record<Flag, boolean>> {
  return Array.from({ length: 2 ** flags.length }, (_, bits) =>
    Object.fromEntries(flags.map((flag, index) => [flag, (bits & (1 << index)) !== 0])),
  ) as Array<Record<Flag, boolean>>;
}

/** A shape's key from its flags, for shapes made of flags alone. */
export const flagsKey =
  <Flag extends string>(flags: readonly Flag[]) =>
  (shape: Record<Flag, boolean>): string =>
    flags.map((flag) => (shape[flag] ? '1' : '0')).join('');

export class PageStatements<Shape, Values> {
  private readonly byKey = new Map<string, { text: string; params: unknown[] }>();
  private readonly keyOf: (shape: Shape) => string;

  constructor(shapes: readonly Shape[], keyOf: (shape: Shape) => string, build: (shape: Shape) => SQL) {
    this.keyOf = keyOf;
    const dialect = new PgDialect();
    for (const shape of shapes) {
      const { sql: text, params } = dialect.sqlToQuery(build(shape));
      this.byKey.set(keyOf(shape), { text, params });
    }
  }

  /** The shape's statement text and its parameters, the placeholders bound to `values`. */
  bind(shape: Shape, values: Partial<Values>): { text: string; values: unknown[] } {
    const statement = this.byKey.get(this.keyOf(shape));
    if (statement === undefined) throw new Error(`no page statement for the shape ${this.keyOf(shape)}`);
    return { text: statement.text, values: fillPlaceholders(statement.params, values as Record<string, unknown>) };
  }
}
