// The SQL side of keyset pages (src/shared/pagination.ts): the ORDER BY of an ordering and the
// "after the last row seen" condition, as one row comparison so an index on the sort keys serves it.
import { sql, type SQL } from 'drizzle-orm';
import type { PagePosition, SortKeyType } from '../shared/pagination.ts';

type SortExpression = SQL | SQL.Aliased | Parameters<typeof sql.raw>[0] | object;

const cast = (value: unknown, type: SortKeyType): SQL => sql`${value}::${sql.raw(type)}`;

/** ORDER BY the sort expressions, in the ordering's direction. */
export function keysetOrderBy(expressions: SortExpression[], position: Pick<PagePosition, 'ordering'>): SQL[] {
  const direction = sql.raw(position.ordering.direction);
  return expressions.map((expression) => sql`${expression} ${direction}`);
}

/** Rows after the cursor's row in this ordering; undefined without a cursor. */
export function keysetAfter(expressions: SortExpression[], position: Pick<PagePosition, 'ordering' | 'after'>): SQL | undefined {
  if (!position.after) return undefined;
  const { keys, direction } = position.ordering;
  const values = position.after.map((value, index) => cast(value, keys[index]));
  const op = sql.raw(direction === 'asc' ? '>' : '<');
  return sql`(${sql.join(expressions as SQL[], sql`, `)}) ${op} (${sql.join(values, sql`, `)})`;
}

/** Rows strictly before `before` by (time, id), newest first (NewestFirstWindow); undefined without one. */
export function keysetBefore(time: SortExpression, id: SortExpression, before: { at: Date; id: string } | undefined): SQL | undefined {
  if (!before) return undefined;
  return sql`(${time}, ${id}) < (${before.at.toISOString()}::timestamptz, ${before.id}::uuid)`;
}
