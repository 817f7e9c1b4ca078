// A Drizzle table's columns as the select list of a fixed statement (queryStatement): each column
// aliased to its Drizzle key and cast so that the driver answers what Drizzle's query would
// (numeric in number mode as a number, a date in string mode as its text). Built from the table
// definition, so a column added there is read here too.
import { getTableColumns, type Table } from 'drizzle-orm';

export function selectList(table: Table, alias?: string): string {
  return Object.entries(getTableColumns(table))
    .map(([key, column]) => {
      const name = alias ? `${alias}.${column.name}` : column.name;
      const value = column.columnType === 'PgNumericNumber' ? `${name}::float8` : column.columnType === 'PgDateString' ? `${name}::text` : name;
      return `${value} as "${key}"`;
    })
    .join(', ');
}
