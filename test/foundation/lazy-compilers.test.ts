// Validators and serializers compiled on a route's first use (src/http/lazy-compilers.ts): nothing
// is compiled when the server starts, each route's own on its first request, and what they do is
// what the eager ones did (coercion of the query, the envelope's details, unknown fields dropped).
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { compileValidatorsLazily, serializersCompiledLazily } from '../../src/http/lazy-compilers.ts';
import { buildValidatorCompiler } from '../../src/http/validation.ts';

function appCountingCompiles() {
  const compiled: string[] = [];
  const validators = buildValidatorCompiler([]);
  const fastify = SerializerSelector();
  const app = Fastify({
    schemaController: {
      compilersFactory: {
        buildSerializer: serializersCompiledLazily((externalSchemas, options) => {
          const compile = fastify(externalSchemas, options);
          return (route) => {
            compiled.push(`serializer ${route.url} ${route.httpStatus}`);
            return compile(route);
          };
        }),
      },
    },
  });
  app.setValidatorCompiler(
    compileValidatorsLazily((route) => {
      compiled.push(`validator ${route.url} ${route.httpPart}`);
      return validators(route);
    }),
  );
  const item = { type: 'object', properties: { size: { type: 'integer' } }, required: ['size'], additionalProperties: false } as const;
  for (const url of ['/a', '/b']) {
    app.get(url, { schema: { querystring: item, response: { 200: { type: 'object', properties: { size: { type: 'integer' }, kind: { type: 'string' } } } } } }, async (request) => ({
      size: (request.query as { size: number }).size,
      kind: typeof (request.query as { size: unknown }).size,
      secret: 'not in the schema',
    }));
  }
  return { app, compiled };
}

describe('lazily compiled validators and serializers', () => {
  it('compiles nothing at start, and only the route asked for on its first request', async () => {
    const { app, compiled } = appCountingCompiles();
    await app.ready();
    expect(compiled).toEqual([]);
    const first = await app.inject({ url: '/a?size=5' });
    expect(first.json()).toEqual({ size: 5, kind: 'number' });
    expect(compiled).toEqual(['validator /a querystring', 'serializer /a 200']);
    await app.inject({ url: '/a?size=6' });
    expect(compiled).toEqual(['validator /a querystring', 'serializer /a 200']);
  });

  it('validates as the eager compiler did: decimal digits only, each failing field named', async () => {
    const { app } = appCountingCompiles();
    const hex = await app.inject({ url: '/b?size=0x10' });
    expect(hex.statusCode).toBe(400);
    const missing = await app.inject({ url: '/b' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/size/);
    // Compiled once by its first (failing) request, then answering a good one.
    expect((await app.inject({ url: '/b?size=7' })).json()).toEqual({ size: 7, kind: 'number' });
  });
});
