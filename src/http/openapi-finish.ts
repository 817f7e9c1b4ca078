// The last pass over the OpenAPI document @fastify/swagger builds from the route schemas: what the
// route schemas cannot say by themselves (a parameter with a default is optional).
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(document: Json): Json[] {
  const found: Json[] = [];
  for (const item of Object.values((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) if (item[method]) found.push(item[method] as Json);
  }
  return found;
}

export function finishDocument<T extends object>(document: T): T {
  const doc = document as Json;
  for (const operation of operations(doc)) {
    const parameters = (operation.parameters ?? []) as Json[];
    for (const parameter of parameters) {
      // The server fills in the default: a client need not send it (page, size, source...).
      const schema = parameter.schema as Json | undefined;
      if (parameter.in === 'query' && schema && schema.default !== undefined) delete parameter.required;
    }
  }
  return document;
}
