// Each route's request validators (Ajv) and response serializers (fast-json-stringify) compiled on
// the route's first use instead of when the server starts listening. Fastify builds them all at
// `listen`: ~200 routes' generated code and the garbage of building it, most of it for routes a
// given process rarely or never answers (the server's resident memory under load, `npm run bench`
// rss_mb_under_load; and a fifth of the start's CPU). What is given up: a schema that cannot
// compile fails on its route's first request, not at start; the tests and the OpenAPI fuzzer
// (test/fuzz) answer every route, so such a schema fails there first.
import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';
import type { FastifySchemaCompiler } from 'fastify';

type Validator = ((data: unknown, ...rest: unknown[]) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** A validator compiler whose validators compile on their first call. */
export function compileValidatorsLazily<T>(compile: FastifySchemaCompiler<T>): FastifySchemaCompiler<T> {
  return (route) => {
    let validate: Validator | undefined;
    const lazy: Validator = (data, ...rest) => {
      validate ??= compile(route) as Validator;
      const result = validate(data, ...rest);
      lazy.errors = validate.errors;
      return result;
    };
    // Fastify passes the request as the value's parent only to validators that say they are Ajv's
    // (schemaEnv), so that Ajv may replace a root value it coerces; every validator here is.
    lazy.schemaEnv = true;
    return lazy as ReturnType<FastifySchemaCompiler<T>>;
  };
}

/** Fastify's own serializer compiler (fast-json-stringify), each serializer built on its first answer. */
export function serializersCompiledLazily(fastifyFactory: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = fastifyFactory(externalSchemas, options);
    return (route) => {
      let serialize: Serializer | undefined;
      return (data: unknown) => (serialize ??= compile(route))(data);
    };
  };
}
