// Validating values against schemas of the OpenAPI document itself (JSON Schema 2020-12, the
// document's $refs resolved): what examples and real responses or deliveries are held to.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const DOC_ID = 'https://openapi.test/document.json';

export type Validate = (value: unknown) => string[];

/** A validator for the schema at a JSON pointer of the document, e.g. `/components/schemas/JobListing`. */
export function documentValidator(document: object): (pointer: string) => Validate {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ ...document, $id: DOC_ID });
  return (pointer) => {
    const validate = ajv.compile({ $ref: `${DOC_ID}#${pointer}` });
    return (value) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`));
  };
}

/** The JSON pointer of a path's operation: /paths/~1public~1v1~1tags/get */
export function operationPointer(path: string, method: string): string {
  return `/paths/${path.replaceAll('~', '~0').replaceAll('/', '~1')}/${method}`;
}
