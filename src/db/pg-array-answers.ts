// pg reads each answer's column descriptions with Result#addFields, which also builds the template
// object that parseRow copies into every row read as an object: a null-prototype object given each
// column's name, then spread. Answers read as arrays (rowMode 'array': Drizzle's queries and
// queryStatement, nearly every query of this app) never use that template, and building it cost
// more than reading a short answer's rows: without it a status move (three short queries) took 16%
// fewer server instructions (docs/decisions.md, "Array answers: pg's row template is not built").
// For them addFields keeps only what reading arrays uses, the columns and each one's parser;
// answers read as objects keep pg's own addFields.
import pg from 'pg';

type Parser = (text: string) => unknown;

/** The parts of pg's Result (lib/result.js) that reading an answer as arrays uses. */
interface ArrayAnswer {
  rowAsArray: boolean;
  fields: Array<{ dataTypeID: number; format?: string }>;
  _parsers: Parser[] | undefined;
  _types: { getTypeParser(oid: number, format: string): Parser } | undefined;
  _prebuiltEmptyResultObject: unknown;
}

type AddFields = (this: ArrayAnswer, fields: ArrayAnswer['fields']) => void;

let installed = false;

/** Installs the array answers' addFields on pg's Result, once. */
export function readArrayAnswersWithoutTemplate(): void {
  if (installed) return;
  installed = true;
  const prototype = pg.Result.prototype as unknown as { addFields: AddFields };
  const pgAddFields = prototype.addFields;
  if (typeof pgAddFields !== 'function') throw new Error("pg's Result has no addFields: src/db/pg-array-answers.ts must follow pg's change");
  prototype.addFields = function addFields(fields) {
    if (!this.rowAsArray) return pgAddFields.call(this, fields);
    this.fields = fields;
    if (fields.length > 0) this._parsers = new Array<Parser>(fields.length);
    const types = this._types ?? (pg.types as unknown as NonNullable<ArrayAnswer['_types']>);
    for (let i = 0; i < fields.length; i++) this._parsers![i] = types.getTypeParser(fields[i].dataTypeID, fields[i].format || 'text');
    this._prebuiltEmptyResultObject = null;
  };
}
